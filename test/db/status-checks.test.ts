import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createMigration } from "../../src/platform/db/migrate.js";
import { BROKER_CHANGE_STATUSES } from "../../src/domains/broker-changes/broker-change.states.js";
import { AUTH_MODES, DOCUMENT_CONTENT_TYPES, TWO_FA_CHANNELS } from "../../src/integrations/registrars/port.js";
import { BSE_BUY_SELL } from "../../src/integrations/exchange/bse/child-orders.repo.js";
import { BSE_ORDER_REF_KINDS, BSE_ORDER_REF_OUTCOMES } from "../../src/integrations/exchange/bse/order-refs.repo.js";
import { RECORD_KINDS, RECORD_STATUSES } from "../../src/integrations/exchange/sandbox/sandbox.repo.js";
import { IMPORT_OUTCOMES } from "../../src/domains/holdings/import.js";
import { FEED_FILE_KINDS, HOLDING_NATURE_VALUES, REGISTRARS } from "../../src/integrations/registrars/feeds/feed.js";
import { TRANSACTION_TYPES } from "../../src/integrations/registrars/feeds/transaction-types.js";
import { EVENT_NAMES, EVENT_RESOURCE_TYPES } from "../../src/domains/events/catalog.js";
import { BANK_ACCOUNT_TYPES, HOLDING_MODES, HOLDING_TYPES, INVESTOR_CHANGE_STATUSES, INVESTOR_STATUSES, TAX_STATUSES } from "../../src/domains/investors/investor.states.js";
import { CONSENT_LINK_STATUSES, NOMINATION_STATUSES } from "../../src/domains/investors/consent.states.js";
import { narrowOrNull, narrowTo } from "../../src/platform/lib/closed-set.js";
import { AMFI_OPTIONS, AMFI_PLANS } from "../../src/integrations/amfi/navall.js";
import { MANDATE_STATUSES, MANDATE_TYPES } from "../../src/domains/mandates/mandate.states.js";
import { EXCHANGE_TRANSACTION_MODES } from "../../src/integrations/exchange/masters/scheme-master.js";
import { CANCELLATION_REASONS, CANCELLATION_STATUSES, INSTALLMENT_STATUSES, ORDER_PAYMENT_STATUSES, ORDER_STATUSES, PAUSE_STATUSES, PURCHASE_TYPES } from "../../src/domains/orders/order.states.js";
import { ORDER_FAILURE_CODES } from "../../src/integrations/exchange/outcomes.js";
import { ORDER_TYPES } from "../../src/domains/orders/order-types.js";
import { ORDER_LINK_STATUSES } from "../../src/domains/order-links/link.states.js";
import { PAYMENT_MODES, PAYMENT_STATUSES } from "../../src/domains/payments/payment.states.js";
import { PAYMENT_FAILURE_CODES } from "../../src/integrations/exchange/outcomes.js";
import { SUBSCRIBABLE } from "../../src/domains/webhooks/event-filter.js";
import { DELIVERY_STATUSES, SUBSCRIPTION_STATUSES } from "../../src/domains/webhooks/webhook.states.js";
import { MISMATCH_KINDS, RUN_STATUSES } from "../../src/domains/reconciliations/reconciliation.states.js";
import { createTestDatabase } from "../helpers/db.js";

/**
 * Every closed-set column: its CHECK constraint must list exactly the TypeScript tuple, in its order. A text
 * column holds one of the values (`column = ANY (ARRAY[...])`); a text[] column only values of the set
 * (`column <@ ARRAY[...]`).
 */
const CLOSED_SETS: Array<[table: string, column: string, values: readonly string[]]> = [
  ["schemes", "plan", AMFI_PLANS],
  ["schemes", "option", AMFI_OPTIONS],
  ["events", "resource_type", EVENT_RESOURCE_TYPES],
  ["events", "event", EVENT_NAMES],
  ["investors", "status", INVESTOR_STATUSES],
  ["investors", "tax_status", TAX_STATUSES],
  ["investors", "holding_type", HOLDING_TYPES],
  ["investor_changes", "status", INVESTOR_CHANGE_STATUSES],
  ["investment_accounts", "holding_mode", HOLDING_MODES],
  ["bank_accounts", "account_type", BANK_ACCOUNT_TYPES],
  ["mandates", "status", MANDATE_STATUSES],
  ["mandates", "mandate_type", MANDATE_TYPES],
  ["orders", "status", ORDER_STATUSES],
  ["orders", "payment_status", ORDER_PAYMENT_STATUSES],
  ["orders", "order_type", ORDER_TYPES],
  ["orders", "purchase_type", PURCHASE_TYPES],
  ["orders", "holding_mode", HOLDING_MODES],
  ["orders", "failure_code", ORDER_FAILURE_CODES],
  ["orders", "cancellation_status", CANCELLATION_STATUSES],
  ["orders", "cancellation_reason", CANCELLATION_REASONS],
  ["exchange_schemes", "transaction_mode", EXCHANGE_TRANSACTION_MODES],
  ["order_installments", "status", INSTALLMENT_STATUSES],
  ["order_pauses", "status", PAUSE_STATUSES],
  ["payments", "status", PAYMENT_STATUSES],
  ["payments", "mode", PAYMENT_MODES],
  ["payments", "failure_code", PAYMENT_FAILURE_CODES],
  ["order_links", "status", ORDER_LINK_STATUSES],
  ["consent_links", "status", CONSENT_LINK_STATUSES],
  ["investors", "nomination_status", NOMINATION_STATUSES],
  ["order_links", "order_type", ORDER_TYPES],
  ["broker_changes", "status", BROKER_CHANGE_STATUSES],
  ["broker_changes", "auth_mode", AUTH_MODES],
  ["broker_changes", "two_fa_channel", TWO_FA_CHANNELS],
  ["broker_change_documents", "content_type", DOCUMENT_CONTENT_TYPES],
  ["webhook_subscriptions", "status", SUBSCRIPTION_STATUSES],
  ["webhook_subscriptions", "events", SUBSCRIBABLE],
  ["webhook_deliveries", "status", DELIVERY_STATUSES],
  ["webhook_deliveries", "event", EVENT_NAMES],
  ["holding_positions", "registrar", REGISTRARS],
  ["holding_positions", "holding_nature", HOLDING_NATURE_VALUES],
  ["holding_snapshots", "registrar", REGISTRARS],
  ["holding_feed_files", "registrar", REGISTRARS],
  ["holding_feed_files", "outcome", IMPORT_OUTCOMES],
  ["holding_feed_files", "kind", FEED_FILE_KINDS],
  ["holding_transactions", "type", TRANSACTION_TYPES],
  ["holding_transactions", "registrar", REGISTRARS],
  ["sandbox_exchange_records", "kind", RECORD_KINDS],
  ["sandbox_exchange_records", "status", RECORD_STATUSES],
  ["bse_order_refs", "outcome", BSE_ORDER_REF_OUTCOMES],
  ["bse_order_refs", "kind", BSE_ORDER_REF_KINDS],
  ["bse_child_orders", "buy_sell", BSE_BUY_SELL],
  ["reconciliation_runs", "status", RUN_STATUSES],
  ["reconciliation_mismatches", "kind", MISMATCH_KINDS],
];

/** The text[] columns among them. */
const ARRAY_COLUMNS = new Set(["webhook_subscriptions.events"]);

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("closed sets checked by the database", { timeout: 60_000 }, () => {
  let db: { url: string; drop: () => Promise<void> };
  let client: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  async function checkConstraints(): Promise<Array<{ table: string; name: string; definition: string }>> {
    const { rows } = await client.query<{ table: string; name: string; definition: string }>(
      `SELECT c.conrelid::regclass::text AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE c.contype = 'c' AND n.nspname = 'public'
        ORDER BY 1, 2`,
    );
    return rows;
  }

  it.each(CLOSED_SETS)("%s.%s lists exactly its TypeScript tuple", async (table, column, values) => {
    const constraint = (await checkConstraints()).find((c) => c.name === `${table}_${column}_check`);

    expect(constraint?.table).toBe(table);
    const operator = ARRAY_COLUMNS.has(`${table}.${column}`) ? "<@ " : "= ANY \\(";
    expect(constraint!.definition).toMatch(new RegExp(`^CHECK \\(\\(${column} ${operator}ARRAY\\[`));
    const listed = [...constraint!.definition.matchAll(/'([^']*)'::text/g)].map((m) => m[1]);
    expect(listed).toEqual([...values]);
  });

  it("has no CHECK constraint that no tuple stands for", async () => {
    const names = (await checkConstraints()).map((c) => c.name).sort();

    expect(names).toEqual(CLOSED_SETS.map(([table, column]) => `${table}_${column}_check`).sort());
  });

  it("refuses a value outside the set, changing nothing", async () => {
    const insert = client.query(
      `INSERT INTO sandbox_exchange_records (kind, reference, status, payload) VALUES ('UCC', 'X1', 'MAYBE', '{}')`,
    );

    await expect(insert).rejects.toMatchObject({ code: "23514", constraint: "sandbox_exchange_records_status_check" });
    const { rows } = await client.query("SELECT count(*)::int AS n FROM sandbox_exchange_records");
    expect(rows).toEqual([{ n: 0 }]);
  });

  it.each([
    ["events", `INSERT INTO events (id, distributor_id, resource_type, resource_id, event, data) VALUES ('evt_1', 'dst_1', 'order', 'ord_1', 'order.shipped', '{}')`, "events_event_check"],
    [
      "webhook_subscriptions",
      `INSERT INTO webhook_subscriptions (id, distributor_id, url, events, secret_encrypted, status)
       VALUES ('whs_1', 'dst_1', 'https://example.in/hook', ARRAY['order.allotted', 'order.shipped'], 'x', 'ACTIVE')`,
      "webhook_subscriptions_events_check",
    ],
  ])("refuses a value outside the set in %s, changing nothing", async (table, insert, constraint) => {
    await expect(client.query(insert)).rejects.toMatchObject({ code: "23514", constraint });
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM ${table}`);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it("leaves the Prisma schema and the migrations in agreement (the schema diff ignores CHECK constraints)", async () => {
    const migrationsDir = await mkdtemp(path.join(os.tmpdir(), "mf-migrations-"));
    try {
      await cp(path.join(REPO_ROOT, "prisma", "migrations"), migrationsDir, { recursive: true });

      const result = await createMigration("drift", { databaseUrl: `${inject("pgServerUrl")}/postgres`, migrationsDir });

      expect(result).toEqual({ dir: null, sql: "" });
    } finally {
      await rm(migrationsDir, { recursive: true, force: true });
    }
  });
});

describe("narrowTo", () => {
  it("answers a value of the set as it is", () => {
    expect(narrowTo(ORDER_STATUSES, "ALLOTTED", "orders.status")).toBe("ALLOTTED");
  });

  it("throws on a value outside the set, naming the column", () => {
    expect(() => narrowTo(ORDER_STATUSES, "MAYBE", "orders.status")).toThrow(
      'orders.status holds "MAYBE", which is none of PENDING, ACCEPTED, REJECTED, FAILED, ALLOTTED, CANCELLED',
    );
  });

  it("keeps an optional column's NULL as null, and narrows its values like narrowTo", () => {
    expect(narrowOrNull(PURCHASE_TYPES, null, "orders.purchase_type")).toBeNull();
    expect(narrowOrNull(PURCHASE_TYPES, "FRESH", "orders.purchase_type")).toBe("FRESH");
    expect(() => narrowOrNull(PURCHASE_TYPES, "SECOND", "orders.purchase_type")).toThrow('orders.purchase_type holds "SECOND", which is none of FRESH, ADDITIONAL');
  });
});
