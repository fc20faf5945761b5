/**
 * The generator's command line: how many of each, and where (its own embedded PostgreSQL under .data/scale,
 * or --database-url). The defaults are the production size for this machine.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import type { Scale } from "./shapes.js";

export const DEFAULT_SCALE: Scale = { investors: 1_000_000, orders: 10_000_000, events: 50_000_000, deliveries: 20_000_000, positions: 5_000_000 };
export const DEFAULT_DATA_DIR = path.resolve(".data/scale");

/** The tables the generator fills (and empties with --truncate). */
export const SEEDED_TABLES = ["investors", "investment_accounts", "bank_accounts", "orders", "order_installments", "payments", "events", "webhook_subscriptions", "webhook_deliveries", "webhook_attempts", "holding_positions"];

export interface SeedOptions {
  scale: Scale;
  databaseUrl: string | undefined;
  dataDir: string;
  /** Empty the generated tables first (else they must be empty). */
  truncate: boolean;
}

function count(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value.replaceAll("_", ""));
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min}, not ${value}`);
  return n;
}

export function parseSeedOptions(argv: string[]): SeedOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      orders: { type: "string" }, investors: { type: "string" }, events: { type: "string" }, deliveries: { type: "string" }, positions: { type: "string" },
      "database-url": { type: "string" }, "data-dir": { type: "string" }, truncate: { type: "boolean", default: false },
    },
  });
  const scale: Scale = {
    orders: count("orders", values.orders, DEFAULT_SCALE.orders, 20),
    investors: count("investors", values.investors, DEFAULT_SCALE.investors, 100),
    events: count("events", values.events, DEFAULT_SCALE.events, 1),
    deliveries: count("deliveries", values.deliveries, DEFAULT_SCALE.deliveries, 1),
    positions: count("positions", values.positions, DEFAULT_SCALE.positions, 0),
  };
  if (scale.deliveries > scale.events) throw new Error(`--deliveries (${scale.deliveries}) must not exceed --events (${scale.events}): a delivery is one event's`);
  return { scale, databaseUrl: values["database-url"], dataDir: path.resolve(values["data-dir"] ?? DEFAULT_DATA_DIR), truncate: values.truncate ?? false };
}
