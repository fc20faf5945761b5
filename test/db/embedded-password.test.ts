import { chmod, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEmbeddedPostgres, startEmbeddedPostgres } from "../../src/platform/db/embedded.js";
import { freePort } from "../helpers/process.js";

/**
 * The embedded PostgreSQL listens on 127.0.0.1, where any local process may connect: its password must be
 * its own (security review, issue 25), not the fixed `postgres` every installation had.
 */

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "mf-pgpass-"));
  await chmod(root, 0o755);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
}, 60_000);

/** The error code of a login to the local server at `port`, or "ok". */
async function login(port: number, password: string): Promise<string> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password, database: "postgres", connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return "ok";
  } catch (error) {
    return String((error as { code?: string }).code);
  } finally {
    await client.end().catch(() => {});
  }
}

const passwordIn = async (file: string) => (await readFile(file, "utf8")).trim();

describe("the embedded PostgreSQL's password", () => {
  it("is random, made at first start, kept in <data dir>.password with mode 0600, and reused after a restart", async () => {
    const dataDir = path.join(root, "fresh", "pg");
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port });
    const file = path.join(root, "fresh", "pg.password");
    try {
      const password = await passwordIn(file);
      expect(password).toMatch(/^[0-9a-f]{64}$/);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await login(port, "postgres")).toBe("28P01");
      expect(await login(port, password)).toBe("ok");
      expect(first.adminUrl).toBe(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`);
    } finally {
      await first.stop();
    }

    const before = await passwordIn(file);
    const second = await startEmbeddedPostgres({ dataDir, port });
    try {
      expect(await passwordIn(file)).toBe(before);
      expect(await login(port, before)).toBe("ok");
      expect(await login(port, "postgres")).toBe("28P01");
      expect(second.urlFor("mf")).toBe(`postgres://postgres:${before}@127.0.0.1:${port}/mf`);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it("replaces `postgres` on a data directory made before (no password file) at its first start, keeping its data", async () => {
    const dataDir = path.join(root, "legacy", "pg");
    const port = await freePort();
    // A data directory as earlier versions made it: initdb with the fixed password.
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    await new EmbeddedPostgres({
      databaseDir: dataDir,
      user: "postgres",
      password: "postgres",
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ["--encoding=UTF8", "--locale=C"],
      onLog: () => {},
      onError: () => {},
    }).initialise();

    const server = await startEmbeddedPostgres({ dataDir, port });
    try {
      const password = await passwordIn(path.join(root, "legacy", "pg.password"));
      expect(password).toMatch(/^[0-9a-f]{64}$/);
      expect((await stat(path.join(root, "legacy", "pg.password"))).mode & 0o777).toBe(0o600);
      expect(await login(port, "postgres")).toBe("28P01");
      expect(await login(port, password)).toBe("ok");
    } finally {
      await server.stop();
    }
  }, 120_000);
});
