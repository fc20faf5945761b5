import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimOwnership } from "../../src/platform/db/data-dir-lock.js";
import { startEmbeddedPostgres } from "../../src/platform/db/embedded.js";
import { EmbeddedPostgresInUseError } from "../../src/platform/db/embedded-errors.js";
import { canConnect } from "../../src/platform/db/postgres-connection.js";
import { spawnPostmaster, type SpawnedPostmaster } from "../../src/platform/db/postgres-watchdog.js";
import { errorSummary } from "../../src/platform/lib/logger.js";
import { freePort, waitFor } from "../helpers/process.js";

/**
 * A service that has just started its embedded server owns it before it has taken the owner lock: the
 * server accepts connections a moment before the lock is claimed. Another process looking in that moment
 * (e.g. `npm run mf` started together with `npm start`) must not take it for an orphan and stop it.
 */

let dataDir: string;
let port: number;
let spawned: SpawnedPostmaster | undefined;
const clients: pg.Client[] = [];

beforeAll(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "mf-owner-"));
  await chmod(dir, 0o755);
  dataDir = path.join(dir, "pg");
  port = await freePort();
  // Initialised (initdb) and stopped again.
  await (await startEmbeddedPostgres({ dataDir, port })).stop();
  password = (await readFile(`${dataDir}.password`, "utf8")).trim();
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.end().catch(() => {});
  await spawned?.stop();
  await rm(path.dirname(dataDir), { recursive: true, force: true });
}, 60_000);

let password: string;
const adminUrl = () => `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
const postmasterPid = async () => Number((await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
const accepting = () => canConnect(adminUrl());

describe("a server started by a live service that has not claimed it yet", () => {
  it("is not stopped by another process: a command shares it once the owner claims it, another service refuses", async () => {
    // Process A's steps, with the gap between them held open: the server under its watchdog, accepting...
    spawned = await spawnPostmaster({ dataDir, port });
    await waitFor("the server to accept connections", accepting, 30_000, 100);
    const pid = await postmasterPid();

    // ...process B looks now (another port in its settings: it finds the server through the data directory)...
    const shared = startEmbeddedPostgres({ dataDir, port: await freePort(), ifRunning: "share", ownerLabel: "npm run mf" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // ...and A claims it.
    clients.push(await claimOwnership(adminUrl(), "npm start"));

    const database = await shared;
    expect({ port: database.port, shared: database.shared }).toEqual({ port, shared: true });
    await database.stop();
    expect(await postmasterPid()).toBe(pid);
    expect(await accepting()).toBe(true);

    const refused = await startEmbeddedPostgres({ dataDir, port: await freePort(), ifRunning: "refuse" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmbeddedPostgresInUseError);
    const inUse = refused as EmbeddedPostgresInUseError;
    expect({ ownerPid: inUse.ownerPid, ownerLabel: inUse.ownerLabel, port: inUse.port }).toEqual({ ownerPid: process.pid, ownerLabel: "npm start", port });
    expect(await postmasterPid()).toBe(pid);
  }, 60_000);
});

describe("the in-use error", () => {
  it("keeps the connection string (with the embedded server's password) out of its message; only the terminal text has it", () => {
    const error = new EmbeddedPostgresInUseError("/data/pg", 4242, "npm start", 54321, "s3cret-of-this-server");
    expect(error.message).toBe(
      "The embedded PostgreSQL in /data/pg is in use by another process (pid 4242, npm start). Stop that process first; " +
        "to run another process on the same database, set its DATABASE_URL to that server (127.0.0.1:54321, database mf, user postgres).",
    );
    expect(JSON.stringify(errorSummary(error))).not.toContain("s3cret");
    expect(JSON.stringify(error)).not.toContain("s3cret");
    expect(error.forTerminal()).toBe(`${error.message}\n  DATABASE_URL=postgres://postgres:s3cret-of-this-server@127.0.0.1:54321/mf`);
  });
});
