import { randomBytes } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { errorSummary, type Logger } from "../lib/logger.js";
import type { OutageNotice } from "./outage-notice.js";

/**
 * graphile-worker marks a job it runs with its pool's id (`locked_by`) and only takes a locked job back
 * after 4 hours, so the jobs of a process killed mid-job (kill -9, OOM, power) would wait that long. Each
 * worker process therefore records its pool in `worker_processes` and, for as long as it runs, holds a
 * session advisory lock (on a dedicated connection, released by PostgreSQL the moment the process or its
 * connection dies) and refreshes a heartbeat. A pool is judged stopped only when both say so (the lock is
 * free AND the heartbeat is older than STALE_AFTER_MS), so a live worker whose connection dropped for a
 * moment keeps its jobs. The jobs of a stopped pool are released with graphile-worker's own
 * `force_unlock_workers` and run again (every task is idempotent). Pools that never registered (another
 * program using graphile-worker) are left to graphile-worker's own expiry.
 *
 * After a database outage longer than STALE_AFTER_MS every lock is gone and every heartbeat stale at
 * once, live workers' included, and they reconnect one heartbeat after another. So a process judges
 * other pools only while its own liveness connection has been up for one stale period: by then every
 * live worker has beaten again.
 */
export const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 20_000;
export const RECOVERY_EVERY_MS = 10_000;

export interface ReleasedPool {
  poolId: string;
  pid: number;
  host: string;
  jobs: number;
}

export class WorkerLiveness {
  private connection: pg.Client | null = null;
  /** When the current connection was made (Date.now()). */
  private connectedAt = 0;
  private poolId: string | null = null;
  private readonly lockKey = (randomBytes(8).readBigInt64BE() & 0x7fff_ffff_ffff_ffffn).toString();
  private closed = false;
  /** The heartbeat under way, if any: a stop waits for it, and the next tick skips while it runs. */
  private beating: Promise<void> | null = null;
  private readonly settleMs: number;
  private readonly outage: OutageNotice | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
    /** settleMs: how long its own connection must have been up before it judges other pools (tests shorten it). */
    options: { settleMs?: number; outage?: OutageNotice } = {},
  ) {
    this.settleMs = options.settleMs ?? STALE_AFTER_MS;
    this.outage = options.outage;
  }

  /** Takes the liveness lock; call before the runner starts taking jobs. */
  async acquire(): Promise<void> {
    this.connection = await this.connect();
    this.connectedAt = Date.now();
  }

  /** Records the runner's pool (its jobs' `locked_by`) as alive. */
  async register(poolId: string): Promise<void> {
    this.poolId = poolId;
    await this.connection!.query(
      `INSERT INTO worker_processes (pool_id, lock_key, pid, host) VALUES ($1, $2::bigint, $3, $4) ON CONFLICT (pool_id) DO NOTHING`,
      [poolId, this.lockKey, process.pid, os.hostname()],
    );
  }

  /**
   * The runner was started again (src/platform/jobs/runner-supervisor.ts): the new pool takes the old one's
   * registration, and the jobs the old pool still holds (its stop could not return them while the database
   * was away) are released now, to run again, rather than in 4 hours.
   */
  async replacePool(previous: string, next: string, pool: pg.Pool): Promise<void> {
    this.poolId = next;
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(`DELETE FROM worker_processes WHERE pool_id = $1`, [previous]);
      await client.query(
        `INSERT INTO worker_processes (pool_id, lock_key, pid, host) VALUES ($1, $2::bigint, $3, $4) ON CONFLICT (pool_id) DO NOTHING`,
        [next, this.lockKey, process.pid, os.hostname()],
      );
      await client.query(`SELECT graphile_worker.force_unlock_workers(ARRAY[$1]::text[])`, [previous]);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Refreshes the heartbeat; after a lost connection, takes the lock again and re-registers. While a
   * heartbeat is still under way (a slow reconnect), another call does nothing.
   */
  heartbeat(): Promise<void> {
    if (this.closed || !this.poolId || this.beating) return Promise.resolve();
    const beating = this.beat(this.poolId).finally(() => {
      if (this.beating === beating) this.beating = null;
    });
    this.beating = beating;
    return beating;
  }

  private async beat(poolId: string): Promise<void> {
    let connection = this.connection;
    if (!connection) {
      connection = await this.connect();
      // The worker stopped while this connected: the new session (and its lock) must not outlive it.
      if (this.closed) {
        await connection.end().catch(() => {});
        return;
      }
      this.connection = connection;
      this.connectedAt = Date.now();
      this.log.info({ pool_id: poolId }, "worker liveness connection restored");
      this.outage?.restored();
    }
    const { rowCount } = await connection.query(`UPDATE worker_processes SET heartbeat_at = now() WHERE pool_id = $1`, [poolId]);
    if (rowCount === 0 && !this.closed) {
      // Another process judged this one stopped (lock and heartbeat lost together for STALE_AFTER_MS):
      // some of its jobs may run twice, which idempotent tasks tolerate. Register again.
      this.log.warn({ pool_id: poolId }, "this worker was taken for stopped and its jobs released; registering again");
      await this.register(poolId);
    }
  }

  /**
   * Releases the jobs of every registered pool that has stopped, so they run again now rather than in
   * 4 hours. Safe to run from any number of processes at once.
   */
  async releaseStoppedPools(pool: pg.Pool): Promise<ReleasedPool[]> {
    // Without a settled connection of its own, the database may just have come back: judge nobody yet.
    if (!this.connection || Date.now() - this.connectedAt < this.settleMs) return [];
    const client = await pool.connect();
    const released: ReleasedPool[] = [];
    try {
      const { rows } = await client.query<{ pool_id: string; lock_key: string; pid: number; host: string }>(
        `SELECT pool_id, lock_key::text, pid, host FROM worker_processes
          WHERE pool_id IS DISTINCT FROM $1 AND heartbeat_at < now() - make_interval(secs => $2)`,
        [this.poolId, STALE_AFTER_MS / 1000],
      );
      for (const row of rows) {
        const { rows: lock } = await client.query<{ free: boolean }>(`SELECT pg_try_advisory_lock($1::bigint) AS free`, [row.lock_key]);
        if (!lock[0]!.free) continue; // alive, only slow to beat
        try {
          await client.query("BEGIN");
          const { rows: held } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE locked_by = $1`, [row.pool_id]);
          await client.query(`SELECT graphile_worker.force_unlock_workers(ARRAY[$1]::text[])`, [row.pool_id]);
          await client.query(`DELETE FROM worker_processes WHERE pool_id = $1`, [row.pool_id]);
          await client.query("COMMIT");
          released.push({ poolId: row.pool_id, pid: row.pid, host: row.host, jobs: held[0]!.n });
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {});
          throw error;
        } finally {
          await client.query(`SELECT pg_advisory_unlock($1::bigint)`, [row.lock_key]);
        }
      }
    } finally {
      client.release();
    }
    for (const pool of released) {
      this.log.info({ pool_id: pool.poolId, pid: pool.pid, host: pool.host, jobs: pool.jobs }, "released the jobs of a stopped worker process");
    }
    return released;
  }

  /** A clean stop: the row goes, and the lock with the connection (after a heartbeat under way ends). */
  async close(): Promise<void> {
    this.closed = true;
    await this.beating?.catch(() => {});
    const connection = this.connection;
    this.connection = null;
    if (!connection) return this.deregisterWithoutSession();
    try {
      if (this.poolId) await connection.query(`DELETE FROM worker_processes WHERE pool_id = $1`, [this.poolId]);
    } finally {
      await connection.end().catch(() => {});
    }
  }

  /**
   * A stop between losing the liveness session and the next heartbeat's reconnect (after a database outage) still
   * removes the row, through a short session of its own; if the database is away, another process's
   * releaseStoppedPools removes it later, as after a crash.
   */
  private async deregisterWithoutSession(): Promise<void> {
    if (!this.poolId) return;
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: HEARTBEAT_MS, query_timeout: HEARTBEAT_MS });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query(`DELETE FROM worker_processes WHERE pool_id = $1`, [this.poolId]);
    } catch {
      // left to releaseStoppedPools
    } finally {
      await client.end().catch(() => {});
    }
  }

  private async connect(): Promise<pg.Client> {
    // Bounded, so a connect or query that hangs (a half-open network) cannot hold a heartbeat, and the stop waiting for it, for long.
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: `mf-worker ${process.pid}`,
      connectionTimeoutMillis: HEARTBEAT_MS,
      query_timeout: HEARTBEAT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: HEARTBEAT_MS,
    });
    client.on("error", (error) => {
      if (this.closed) return;
      this.log.warn({ error: errorSummary(error) }, "worker liveness connection lost; reconnecting at the next heartbeat");
      if (this.connection === client) this.connection = null;
      client.end().catch(() => {});
    });
    await client.connect();
    const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1::bigint) AS locked`, [this.lockKey]);
    if (!rows[0]!.locked) {
      await client.end().catch(() => {});
      throw new Error("worker liveness lock is taken by another session");
    }
    return client;
  }
}
