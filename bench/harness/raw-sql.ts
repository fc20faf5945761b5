/**
 * The statements our stack sends for each benchmarked path, copied from what bench/harness/capture-sql.ts
 * recorded (pg's Client.query wrapped, one warm request per path; run it again after a change to the
 * repos and update these). The raw baselines run them with `pg`, with the same transaction boundaries
 * and the same parameters, so a baseline differs from our stack only by what is not database work.
 */
import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";

/**
 * POST /api/orders/v1/ (a lump sum, no Idempotency-Key, no client_ref): two statements, no transaction:
 * what placement reads (account, investor, bank accounts, scheme), then the order with its dispatch job.
 */
export const PLACEMENT = {
  facts: `SELECT a.id AS account_id, a.investor_id, a.holding_mode, i.status AS investor_status, ARRAY(SELECT b.id FROM bank_accounts b WHERE b.investor_id = a.investor_id) AS bank_account_ids, s.scheme_code, s.purchase_allowed, s.redemption_allowed, s.sip_allowed, s.min_purchase_amount::text AS min_purchase_amount, s.purchase_multiple::text AS purchase_multiple, s.min_additional_amount::text AS min_additional_amount, s.min_redemption_amount::text AS min_redemption_amount, s.min_sip_amount::text AS min_sip_amount, s.sip_multiple::text AS sip_multiple, s.nav::text AS nav FROM (SELECT 1) AS one LEFT JOIN (investment_accounts a JOIN investors i ON i.id = a.investor_id) ON a.id = $1 AND a.distributor_id = $2 LEFT JOIN schemes s ON s.scheme_code = $3`,
  orderWithJob: `WITH placed AS ( INSERT INTO orders (id, distributor_id, investor_id, investment_account_id, order_type, status, payment_status, purchase_type, holding_mode, scheme_code, folio_no, amount, units, all_units, bank_account_id, mandate_id, client_ref, remarks, sub_broker_arn, details, exchange_order_number, provider_remark, parent_order_id, installment_no, request_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric, $13::numeric, $14, $15, $16, $17, $18, $19, $20::jsonb, $21, $22, $23, $24::int, $25, $26::timestamptz, $26::timestamptz) ON CONFLICT DO NOTHING RETURNING id, distributor_id AS "distributorId", investor_id AS "investorId", investment_account_id AS "investmentAccountId", order_type AS "orderType", status, payment_status AS "paymentStatus", purchase_type AS "purchaseType", holding_mode AS "holdingMode", scheme_code AS "schemeCode", folio_no AS "folioNo", amount, units, all_units AS "allUnits", bank_account_id AS "bankAccountId", mandate_id AS "mandateId", client_ref AS "clientRef", remarks, sub_broker_arn AS "subBrokerArn", details, exchange_order_number AS "exchangeOrderNumber", provider_remark AS "providerRemark", failure_code AS "failureCode", nav, allotted_units AS "allottedUnits", allotted_amount AS "allottedAmount", allotment_date AS "allotmentDate", parent_order_id AS "parentOrderId", installment_no AS "installmentNo", request_hash AS "requestHash", created_at AS "createdAt", updated_at AS "updatedAt" ), job AS ( SELECT added.id FROM placed, LATERAL graphile_worker.add_job( identifier => $27::text, payload => $28::json, queue_name => $29::text, run_at => $30::timestamptz, max_attempts => $31::int, job_key => $32::text, priority => $33::int) AS added ) SELECT placed.*, (SELECT id FROM job) AS "jobId" FROM placed`,
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
 * The raw placement: the two statements above through the pool, as our stack sends them (each on a pooled
 * connection of its own, no transaction around them); answers what our stack answers (id, client_ref,
 * created_at, order_type, status). Only the JavaScript a raw server needs: an id, the request hash, the
 * amount as a decimal, the job's payload.
 */
export async function rawPlacement(pool: pg.Pool, distributorId: string, body: LumpSumBody): Promise<{ status: number; body: unknown }> {
  const { rows: facts } = await pool.query(PLACEMENT.facts, [body.investment_account_id, distributorId, body.scheme_code]);
  const account = facts[0] as { account_id: string | null; investor_id: string; holding_mode: string | null } | undefined;
  if (!account?.account_id) throw new Error("no account");
  const id = `ord_${randomUUID().replaceAll("-", "")}`;
  const now = new Date();
  const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  const { rows } = await pool.query(PLACEMENT.orderWithJob, [
    id, distributorId, account.investor_id, account.account_id, body.order_type, "PENDING", "UNPAID", body.purchase_type, account.holding_mode, body.scheme_code,
    null, body.amount.toFixed(2), null, false, null, null, null, null, null, "{}", null, null, null, null, hash, now,
    "orders__dispatch", JSON.stringify({ order_id: id }), null, null, 5, `orders__dispatch:${id}`, null,
  ]);
  const order = rows[0] as { id: string; clientRef: string | null; createdAt: Date; orderType: string; status: string };
  return { status: 201, body: { id: order.id, client_ref: order.clientRef, created_at: order.createdAt.toISOString(), order_type: order.orderType, status: order.status } };
}

/** POST /api/holdings/v1/lookup: one statement, no transaction (the PAN's keyed hash computed first). */
export const LOOKUP = `SELECT registrar, amc_code, amc_name, folio_no, coalesce(scheme_code, registrar_scheme_code) AS scheme_code, isin, scheme_name, units::text AS units, nav::text AS nav, nav_date::text AS nav_date, market_value::text AS market_value, balance_date::text AS balance_date FROM holding_positions WHERE pan_hash = $1 AND distributor_id = $2 AND holding_nature = 'SINGLE' ORDER BY registrar, amc_code, folio_no, registrar_scheme_code`;

