import pg from "pg";
import { afterEach } from "vitest";

/** A statement as pg's Client.query was asked it: its text (whitespace collapsed) and its prepared statement name. */
export interface SentStatement {
  text: string;
  name: string | undefined;
}

const original = pg.Client.prototype.query;

/** Puts pg's Client.query back: after each test of the calling file, whatever a test left recording. */
export function restoreStatementsAfterEach(): void {
  afterEach(stopRecordingStatements);
}

export function stopRecordingStatements(): void {
  pg.Client.prototype.query = original;
}

/**
 * Records the statements sent from now until stopRecordingStatements, at pg's Client.query (Prisma's adapter
 * and the pool of readRows send every statement through it). Those matching `fail` are refused, as PostgreSQL
 * refuses a statement that ran out of time (57014), and not sent.
 */
export function recordStatements(fail?: RegExp): SentStatement[] {
  const recorded: SentStatement[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; name?: string };
    const text = (typeof config === "string" ? config : config?.text)?.replace(/\s+/g, " ").trim();
    if (text) recorded.push({ text, name: typeof config === "string" ? undefined : config?.name });
    if (text && fail?.test(text)) {
      const error = Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });
      const callback = args.at(-1);
      if (typeof callback === "function") return void setImmediate(() => callback(error));
      return Promise.reject(error);
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return recorded;
}

/** The statements sent while `run` runs. */
export async function statementsWhile(run: () => Promise<unknown>): Promise<SentStatement[]> {
  const recorded = recordStatements();
  try {
    await run();
  } finally {
    stopRecordingStatements();
  }
  return recorded;
}
