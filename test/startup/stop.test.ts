import { describe, expect, it } from "vitest";
import { openRuntime } from "../../src/runtime.js";
import { stopService } from "../../src/shutdown.js";
import { startWorker } from "../../src/worker.js";
import { capturingLogger } from "../helpers/logs.js";
import { useTestApp } from "../helpers/app.js";

/** A worker whose start or stop fails part-way still closes what it opened; the service still closes its database. */

const app = useTestApp();


/** This test process's worker connections: the liveness connection and graphile-worker's pool. */
const workerSessions = async () =>
  app.prisma.$queryRawUnsafe<Array<{ application_name: string }>>(
    `SELECT application_name FROM pg_stat_activity WHERE datname = current_database() AND application_name IN ($1, 'stop-test-pool')`,
    `mf-worker ${process.pid}`,
  );
const registrations = () => app.prisma.$queryRawUnsafe<Array<{ pool_id: string }>>(`SELECT pool_id FROM worker_processes WHERE pid = $1`, process.pid);
const workerUrl = () => `${app.databaseUrl}${app.databaseUrl.includes("?") ? "&" : "?"}application_name=stop-test-pool`;

describe("the worker", () => {
  it("that fails to start leaves no connection open (its liveness lock included) and no registration", async () => {
    const services = { ...app.services, config: { ...app.services.config, holdings: { ...app.services.config.holdings, refreshCron: "not a cron" } } };
    await expect(startWorker(services, workerUrl())).rejects.toThrow();
    expect(await workerSessions()).toEqual([]);
    expect(await registrations()).toEqual([]);
  });

  it("whose runner fails to stop still ends its registration, its liveness connection and its pool, and reports the failure", async () => {
    const worker = await startWorker(app.services, workerUrl());
    expect(await registrations()).toHaveLength(1);
    await worker.runner.stop(); // a second stop of the runner rejects ("already stopped")
    await expect(worker.stop()).rejects.toThrow(/already stopped/);
    expect(await registrations()).toEqual([]);
    await expect.poll(workerSessions, { timeout: 5_000 }).toEqual([]);
  });
});

describe("the service's stop", () => {
  it("when the worker's stop fails: one error line, the database still closed, a failing exit code", async () => {
    const { logger, parsed } = capturingLogger();
    const runtime = await openRuntime({ ...app.config, dataKeyHex: "ab".repeat(32) }, logger);
    let closed = 0;
    const worker = await startWorker(runtime.services, workerUrl());
    await worker.runner.stop();

    const code = await stopService({ worker, runtime: { close: () => ((closed += 1), runtime.close()) }, logger }, "SIGTERM");

    expect(code).toBe(1);
    expect(closed).toBe(1);
    const lines = parsed().filter((l) => ["stopping", "stopped"].includes(String(l.msg)) || (l.level as number) >= 50);
    expect(lines).toEqual([
      { level: 30, time: expect.any(String), msg: "stopping", signal: "SIGTERM" },
      { level: 50, time: expect.any(String), msg: "stopping the server or the worker failed; closing the database all the same", error: { message: "Runner is already stopped" } },
      { level: 30, time: expect.any(String), msg: "stopped", exit_code: 1 },
    ]);
    expect(await registrations()).toEqual([]);
  });
});
