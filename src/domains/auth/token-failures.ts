import type { Db, Tx } from "../../platform/db/client.js";
import { addressKey } from "../../platform/lib/address-key.js";
import { sha256Hex } from "../../platform/lib/crypto.js";
import { AppError } from "../../platform/lib/errors.js";
import { KeyedMutex } from "../../platform/lib/keyed-mutex.js";
import { Semaphore } from "../../platform/lib/semaphore.js";
import * as repo from "./auth.repo.js";

export interface FailureLimitSettings {
  /** Failures allowed per client id and per address within the window; the next request is refused. */
  limit: number;
  windowMs: number;
}

const MAX_REMEMBERED_BLOCKS = 10_000;
/** Token checks waiting for a database permit; more at once answer 503 (about a second of checks). */
const MAX_WAITING_CHECKS = 100;

/** The token checks a process lets hold a pooled connection at once: a quarter of the pool, at least 1. */
export function tokenChecksFor(poolSize: number): number {
  return Math.max(1, Math.floor(poolSize / 4));
}

const busy = () =>
  new AppError("UNAVAILABLE", "Too many token requests at once; retry shortly", { headers: { "Retry-After": "1" } });

type Blocking = Awaited<ReturnType<typeof repo.blockingTokenFailures>>;

/**
 * Failed token requests, limited per client id and per client address, counted in PostgreSQL so every
 * process sees the same counts. A request is checked and, when its credentials fail, recorded under
 * an advisory lock on both keys, so concurrent attempts cannot slip past the limit. While a key is
 * blocked nothing is recorded for it, so a block ends exactly when its `limit`-th newest failure leaves
 * the window; each process remembers blocks it has seen until then and refuses without a query.
 */
export class TokenFailureLimit {
  /** Waiting requests for the same keys queue here rather than each holding a database connection. */
  private readonly mutex = new KeyedMutex();
  private readonly blocks = new Map<string, number>();
  /**
   * Unauthenticated requests must not be able to take the whole pool: the mutex only serialises
   * equal keys, and distinct client ids from distinct addresses would each hold a connection.
   */
  private readonly checks: Semaphore;

  constructor(
    private readonly db: Db,
    private readonly settings: FailureLimitSettings,
    private readonly now: () => number,
    concurrentChecks = 1,
  ) {
    this.checks = new Semaphore(concurrentChecks, MAX_WAITING_CHECKS);
  }

  /**
   * Runs `verify` (null: the credentials failed) unless the client id or the address is blocked,
   * which is a 429 RATE_LIMITED with Retry-After. A failure is recorded in the same transaction.
   */
  async attempt<T>(clientId: string, address: string, verify: (tx: Tx) => Promise<T | null>): Promise<T | null> {
    const keys = { clientKey: sha256Hex(clientId), ipKey: addressKey(address) };
    const clientBlock = `client:${keys.clientKey}`;
    const addressBlock = `address:${keys.ipKey}`;
    return this.mutex.withKeys([clientBlock, addressBlock], async () => {
      this.refuseIfKnownBlocked(clientBlock, addressBlock);
      const { windowMs, limit } = this.settings;
      const outcome = await this.checks.run(() => {
        const now = this.now();
        return this.db.$transaction(async (tx): Promise<{ verified: T | null; blocking?: Blocking }> => {
          await repo.lockTokenFailureKeys(tx, keys);
          const blocking = await repo.blockingTokenFailures(tx, { ...keys, since: new Date(now - windowMs), limit });
          if (blocking.client || blocking.address) return { verified: null, blocking };
          const verified = await verify(tx);
          if (verified === null) await repo.insertTokenFailure(tx, { ...keys, failedAt: new Date(now) });
          return { verified };
        });
      }, busy);
      if (outcome.blocking) {
        const { client, address } = outcome.blocking;
        if (client) this.remember(clientBlock, client.getTime() + windowMs);
        if (address) this.remember(addressBlock, address.getTime() + windowMs);
        this.refuseIfKnownBlocked(clientBlock, addressBlock);
      }
      return outcome.verified;
    });
  }

  private refuseIfKnownBlocked(...keys: string[]): void {
    const now = this.now();
    let until = 0;
    for (const key of keys) {
      const end = this.blocks.get(key);
      if (end === undefined) continue;
      if (end <= now) this.blocks.delete(key);
      else until = Math.max(until, end);
    }
    if (until > now) {
      const seconds = Math.max(1, Math.ceil((until - now) / 1000));
      throw new AppError("RATE_LIMITED", `Too many failed token requests; retry after ${seconds} s`, {
        headers: { "Retry-After": String(seconds) },
      });
    }
  }

  private remember(key: string, until: number): void {
    if (this.blocks.size >= MAX_REMEMBERED_BLOCKS) {
      const now = this.now();
      for (const [other, end] of this.blocks) if (end <= now) this.blocks.delete(other);
      // Forgetting a block only costs a query: the database still holds it.
      if (this.blocks.size >= MAX_REMEMBERED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!);
    }
    this.blocks.set(key, until);
  }
}
