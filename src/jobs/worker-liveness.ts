import { randomBytes } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { errorSummary, type Logger } from "../lib/logger.js";

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
  private poolId: string | null = null;
  private readonly lockKey = (randomBytes(8).readBigInt64BE() & 0x7fff_ffff_ffff_ffffn).toString();
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  /** Takes the liveness lock; call before the runner starts taking jobs. */
  async acquire(): Promise<void> {
    this.connection = await this.connect();
  }

  /** Records the runner's pool (its jobs' `locked_by`) as alive. */
  async register(poolId: string): Promise<void> {
    this.poolId = poolId;
    await this.connection!.query(
      `INSERT INTO worker_processes (pool_id, lock_key, pid, host) VALUES ($1, $2::bigint, $3, $4)`,
      [poolId, this.lockKey, process.pid, os.hostname()],
    );
  }

  /** Refreshes the heartbeat; after a lost connection, takes the lock again and re-registers. */
  async heartbeat(): Promise<void> {
    if (this.closed || !this.poolId) return;
    if (!this.connection) {
      this.connection = await this.connect();
      this.log.info({ pool_id: this.poolId }, "worker liveness connection restored");
    }
    const { rowCount } = await this.connection.query(`UPDATE worker_processes SET heartbeat_at = now() WHERE pool_id = $1`, [this.poolId]);
    if (rowCount === 0) {
      // Another process judged this one stopped (lock and heartbeat lost together for STALE_AFTER_MS):
      // some of its jobs may run twice, which idempotent tasks tolerate. Register again.
      this.log.warn({ pool_id: this.poolId }, "this worker was taken for stopped and its jobs released; registering again");
      await this.register(this.poolId);
    }
  }

  /**
   * Releases the jobs of every registered pool that has stopped, so they run again now rather than in
   * 4 hours. Safe to run from any number of processes at once.
   */
  async releaseStoppedPools(pool: pg.Pool): Promise<ReleasedPool[]> {
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

  /** A clean stop: the row goes, and the lock with the connection. */
  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = null;
    if (!connection) return;
    try {
      if (this.poolId) await connection.query(`DELETE FROM worker_processes WHERE pool_id = $1`, [this.poolId]);
    } finally {
      await connection.end().catch(() => {});
    }
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: `mf-worker ${process.pid}` });
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
