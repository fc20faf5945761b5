import { randomBytes } from "node:crypto";
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { LEGACY_PASSWORD, urlFor } from "./postgres-connection.js";

/**
 * The embedded server's password: random, made before the first initdb, kept beside the data directory in
 * `<dir>.password` (`<MF_DATA_DIR>/pg.password`), readable by its owner only (0600). Beside rather than inside,
 * so it exists before initdb (which wants an empty directory) and a start interrupted between the two still
 * finds it. Data directories made before it (password `postgres`) are moved over on their next start.
 */
export function passwordFileOf(dataDir: string): string {
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.password`);
}

/** The stored password, or null when there is none yet. */
export async function readPassword(dataDir: string): Promise<string | null> {
  try {
    return (await readFile(passwordFileOf(dataDir), "utf8")).trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The stored password, made (256 random bits, hex) and written with mode 0600 when there is none. */
export async function readOrCreatePassword(dataDir: string): Promise<string> {
  const stored = await readPassword(dataDir);
  if (stored) return stored;
  const password = randomBytes(32).toString("hex");
  const file = passwordFileOf(dataDir);
  // `wx`: two processes starting at once must not overwrite each other's; the loser reads the winner's.
  try {
    await writeFile(file, `${password}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readPassword(dataDir)) ?? password;
    throw error;
  }
  await chmod(file, 0o600);
  return password;
}

/**
 * Makes the server at `port` take `password`: when it still has the old fixed one (a data directory made
 * before the password file), logs in with that and sets the new one. Idempotent.
 */
export async function adoptPassword(port: number, password: string): Promise<void> {
  if (await acceptsLogin(urlFor(port, "postgres", password))) return;
  const client = new pg.Client({ connectionString: urlFor(port, "postgres", LEGACY_PASSWORD) });
  client.on("error", () => {});
  await client.connect();
  try {
    // ALTER ROLE takes no parameters; the password is hex, so quoting it is enough.
    await client.query(`ALTER USER CURRENT_USER PASSWORD ${client.escapeLiteral(password)}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The admin connection string of a running server of `dataDir`: with the stored password, or the old fixed
 * one while the server has not been moved over yet (a start interrupted after writing the file).
 */
export async function adminUrlOf(dataDir: string, port: number): Promise<string> {
  const stored = await readPassword(dataDir);
  const url = urlFor(port, "postgres", stored ?? LEGACY_PASSWORD);
  if (stored === null || (await acceptsLogin(url))) return url;
  const legacy = urlFor(port, "postgres", LEGACY_PASSWORD);
  return (await acceptsLogin(legacy)) ? legacy : url;
}

async function acceptsLogin(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (isLoginRefused(error)) return false;
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/** PostgreSQL's class 28: invalid authorization (a wrong password is 28P01). */
export function isLoginRefused(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === "string" && (error as { code: string }).code.startsWith("28");
}
