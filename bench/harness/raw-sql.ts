/**
 * The statements our stack sends for each benchmarked path, copied from what bench/harness/capture-sql.ts
 * recorded (pg's Client.query wrapped, one warm request per path; run it again after a change to the
 * repos and update these). The raw baselines run them with `pg`, with the same transaction boundaries
 * and the same parameters, so a baseline differs from our stack only by what is not database work.
 */
import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";

/** POST /api/orders/v1/ (a lump sum, no Idempotency-Key, no client_ref): one transaction of six statements. */
export const PLACEMENT = {
  account: `SELECT "public"."investment_accounts"."id", "public"."investment_accounts"."distributor_id", "public"."investment_accounts"."investor_id", "public"."investment_accounts"."holding_mode", "public"."investment_accounts"."created_at" FROM "public"."investment_accounts" WHERE ("public"."investment_accounts"."id" = $1 AND "public"."investment_accounts"."distributor_id" = $2) LIMIT $3 OFFSET $4`,
  investor: `SELECT "public"."investors"."id", "public"."investors"."status" FROM "public"."investors" WHERE "public"."investors"."id" IN ($1) OFFSET $2`,
  bankAccounts: `SELECT "public"."bank_accounts"."id", "public"."bank_accounts"."investor_id" FROM "public"."bank_accounts" WHERE "public"."bank_accounts"."investor_id" IN ($1) OFFSET $2`,
  scheme: `SELECT "public"."schemes"."scheme_code", "public"."schemes"."isin_growth", "public"."schemes"."isin_reinvestment", "public"."schemes"."name", "public"."schemes"."amc_code", "public"."schemes"."amc_name", "public"."schemes"."category", "public"."schemes"."scheme_type", "public"."schemes"."plan", "public"."schemes"."option", "public"."schemes"."purchase_allowed", "public"."schemes"."redemption_allowed", "public"."schemes"."sip_allowed", "public"."schemes"."min_purchase_amount", "public"."schemes"."purchase_multiple", "public"."schemes"."min_additional_amount", "public"."schemes"."min_redemption_amount", "public"."schemes"."min_sip_amount", "public"."schemes"."sip_multiple", "public"."schemes"."nav", "public"."schemes"."nav_date", "public"."schemes"."updated_at" FROM "public"."schemes" WHERE ("public"."schemes"."scheme_code" = $1 AND 1=1) LIMIT $2 OFFSET $3`,
  order: `INSERT INTO "public"."orders" ("id","distributor_id","investor_id","investment_account_id","order_type","status","payment_status","purchase_type","holding_mode","scheme_code","folio_no","amount","units","all_units","bank_account_id","mandate_id","client_ref","remarks","sub_broker_arn","details","exchange_order_number","provider_remark","parent_order_id","installment_no","request_hash","created_at","updated_at") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27) ON CONFLICT DO NOTHING RETURNING "public"."orders"."id", "public"."orders"."distributor_id", "public"."orders"."investor_id", "public"."orders"."investment_account_id", "public"."orders"."order_type", "public"."orders"."status", "public"."orders"."payment_status", "public"."orders"."purchase_type", "public"."orders"."holding_mode", "public"."orders"."scheme_code", "public"."orders"."folio_no", "public"."orders"."amount", "public"."orders"."units", "public"."orders"."all_units", "public"."orders"."bank_account_id", "public"."orders"."mandate_id", "public"."orders"."client_ref", "public"."orders"."remarks", "public"."orders"."sub_broker_arn", "public"."orders"."details", "public"."orders"."exchange_order_number", "public"."orders"."provider_remark", "public"."orders"."failure_code", "public"."orders"."nav", "public"."orders"."allotted_units", "public"."orders"."allotted_amount", "public"."orders"."allotment_date", "public"."orders"."parent_order_id", "public"."orders"."installment_no", "public"."orders"."request_hash", "public"."orders"."created_at", "public"."orders"."updated_at"`,
  job: `SELECT graphile_worker.add_job( identifier => $1::text, payload => $2::json, queue_name => $3::text, run_at => $4::timestamptz, max_attempts => $5::int, job_key => $6::text, priority => $7::int)`,
};

/** The body the placement benchmark sends. */
export interface LumpSumBody {
  investment_account_id: string;
  order_type: string;
  scheme_code: string;
  amount: number;
  purchase_type: string;
}

/**
 * The raw placement: BEGIN, the five reads and writes above and the job, COMMIT, on one pooled client;
 * answers what our stack answers (id, client_ref, created_at, order_type, status). Only the JavaScript
 * a raw server needs: an id, the request hash, the amount as a decimal.
 */
export async function rawPlacement(pool: pg.Pool, distributorId: string, body: LumpSumBody): Promise<{ status: number; body: unknown }> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows: accounts } = await client.query(PLACEMENT.account, [body.investment_account_id, distributorId, 1, 0]);
    const account = accounts[0] as { id: string; investor_id: string; holding_mode: string } | undefined;
    if (!account) throw new Error("no account");
    await client.query(PLACEMENT.investor, [account.investor_id, 0]);
    await client.query(PLACEMENT.bankAccounts, [account.investor_id, 0]);
    await client.query(PLACEMENT.scheme, [body.scheme_code, 1, 0]);
    const id = `ord_${randomUUID().replaceAll("-", "")}`;
    const now = new Date();
    const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
    const { rows } = await client.query(PLACEMENT.order, [
      id, distributorId, account.investor_id, account.id, body.order_type, "PENDING", "UNPAID", body.purchase_type, account.holding_mode, body.scheme_code,
      null, body.amount.toFixed(2), null, false, null, null, null, null, null, "{}", null, null, null, null, hash, now, now,
    ]);
    await client.query(PLACEMENT.job, ["orders__dispatch", JSON.stringify({ order_id: id }), null, null, 5, `orders__dispatch:${id}`, null]);
    await client.query("COMMIT");
    const order = rows[0] as { id: string; client_ref: string | null; created_at: Date; order_type: string; status: string };
    return { status: 201, body: { id: order.id, client_ref: order.client_ref, created_at: order.created_at.toISOString(), order_type: order.order_type, status: order.status } };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** POST /api/holdings/v1/lookup: one statement, no transaction (the PAN's keyed hash computed first). */
export const LOOKUP = `SELECT registrar, amc_code, amc_name, folio_no, coalesce(scheme_code, registrar_scheme_code) AS scheme_code, isin, scheme_name, units::text AS units, nav::text AS nav, nav_date::text AS nav_date, market_value::text AS market_value, balance_date::text AS balance_date FROM holding_positions WHERE pan_hash = $1 AND distributor_id = $2 AND holding_nature = 'SINGLE' ORDER BY registrar, amc_code, folio_no, registrar_scheme_code`;
