/**
 * The statements our stack sends for each benchmarked path, copied from what bench/harness/capture-sql.ts
 * recorded (pg's Client.query wrapped, one warm request per path; run it again after a change to the
 * repos and update these). The raw baselines run them with `pg`, with the same transaction boundaries
 * and the same parameters, so a baseline differs from our stack only by what is not database work.
 */
import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";
import type { DataCipher } from "../../src/platform/lib/crypto.js";
import { Batcher } from "../../src/platform/lib/batcher.js";
import { newId } from "../../src/platform/lib/ids.js";
import { maskPan } from "../../src/platform/lib/mask.js";

/**
 * POST /api/orders/v1/ (a lump sum, no Idempotency-Key, no client_ref): three statements, no transaction:
 * what placement reads (account, investor, bank accounts, scheme), the order, then its dispatch job in one
 * add_jobs call with the jobs of the placements waiting meanwhile.
 */
export const PLACEMENT = {
  facts: `SELECT a.id AS account_id, a.investor_id, a.holding_mode, i.status AS investor_status, i.nomination_status, ARRAY(SELECT b.id FROM bank_accounts b WHERE b.investor_id = a.investor_id AND b.removed_at IS NULL) AS bank_account_ids, ARRAY(SELECT b.id FROM bank_accounts b JOIN investor_changes c ON c.id = b.removal_change_id AND c.status = 'PENDING' WHERE b.investor_id = a.investor_id AND b.removed_at IS NULL) AS removing_bank_account_ids, s.scheme_code, s.isin_growth, s.isin_reinvestment, s.nav::text AS nav, CASE WHEN s.scheme_code IS NULL THEN NULL ELSE COALESCE(( SELECT json_agg(json_build_object( 'code', e.code, 'unique_no', e.unique_no, 'isin', e.isin, 'transaction_mode', e.transaction_mode, 'active', e.active, 'amc_active', e.amc_active, 'start_date', e.start_date::text, 'end_date', e.end_date::text, 'reopening_date', e.reopening_date::text, 'purchase_allowed', e.purchase_allowed, 'redemption_allowed', e.redemption_allowed, 'sip_allowed', e.sip_allowed, 'stp_allowed', e.stp_allowed, 'swp_allowed', e.swp_allowed, 'switch_allowed', e.switch_allowed, 'scheme_type', e.scheme_type, 'min_purchase_amount', e.min_purchase_amount::text, 'min_additional_amount', e.min_additional_amount::text, 'max_purchase_amount', e.max_purchase_amount::text, 'purchase_multiple', e.purchase_multiple::text, 'min_redemption_amount', e.min_redemption_amount::text, 'max_redemption_amount', e.max_redemption_amount::text, 'redemption_amount_multiple', e.redemption_amount_multiple::text, 'min_redemption_units', e.min_redemption_units::text, 'max_redemption_units', e.max_redemption_units::text, 'redemption_units_multiple', e.redemption_units_multiple::text, 'sip_rules', COALESCE((SELECT json_agg(json_build_object( 'frequency', r.frequency, 'dates', r.dates, 'active', r.active, 'min_amount', r.min_amount::text, 'max_amount', r.max_amount::text, 'multiple', r.multiple::text, 'min_installments', r.min_installments, 'max_installments', r.max_installments, 'min_gap_days', r.min_gap_days, 'max_gap_days', r.max_gap_days) ORDER BY r.frequency) FROM exchange_sip_rules r WHERE r.code = e.code), '[]'::json) ) ORDER BY e.unique_no NULLS LAST, e.code) FROM exchange_schemes e WHERE e.isin = s.isin_growth OR e.isin = s.isin_reinvestment), '[]'::json) END AS codes FROM (SELECT 1) AS one LEFT JOIN (investment_accounts a JOIN investors i ON i.id = a.investor_id) ON a.id = $1 AND a.distributor_id = $2 LEFT JOIN schemes s ON s.scheme_code = $3`,
  order: `INSERT INTO orders (id, distributor_id, investor_id, investment_account_id, order_type, status, payment_status, purchase_type, holding_mode, scheme_code, folio_no, amount, units, all_units, bank_account_id, mandate_id, client_ref, remarks, sub_broker_arn, details, exchange_order_number, provider_remark, parent_order_id, installment_no, request_hash, created_at, updated_at, exchange_scheme_code, to_exchange_scheme_code) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric, $13::numeric, $14, $15, $16, $17, $18, $19, $20::jsonb, $21, $22, $23, $24::int, $25, $26::timestamptz, $26::timestamptz, $27, $28) ON CONFLICT DO NOTHING RETURNING id, distributor_id AS "distributorId", investor_id AS "investorId", investment_account_id AS "investmentAccountId", order_type AS "orderType", status, payment_status AS "paymentStatus", purchase_type AS "purchaseType", holding_mode AS "holdingMode", scheme_code AS "schemeCode", folio_no AS "folioNo", amount, units, all_units AS "allUnits", bank_account_id AS "bankAccountId", mandate_id AS "mandateId", client_ref AS "clientRef", remarks, sub_broker_arn AS "subBrokerArn", details, exchange_order_number AS "exchangeOrderNumber", provider_remark AS "providerRemark", failure_code AS "failureCode", nav, allotted_units AS "allottedUnits", allotted_amount AS "allottedAmount", allotment_date AS "allotmentDate", nav_date_expected AS "navDateExpected", parent_order_id AS "parentOrderId", installment_no AS "installmentNo", request_hash AS "requestHash", exchange_scheme_code AS "exchangeSchemeCode", to_exchange_scheme_code AS "toExchangeSchemeCode", nav_date_expected AS "navDateExpected", cancellation_status AS "cancellationStatus", cancellation_requested_at AS "cancellationRequestedAt", cancellation_remark AS "cancellationRemark", dispatch_claimed_at AS "dispatchClaimedAt", created_at AS "createdAt", updated_at AS "updatedAt"`,
  /** The dispatch jobs of the orders placed meanwhile, one call for all (as src/platform/jobs/jobs.repo.ts addJobs). */
  dispatchJobs: `SELECT added.key FROM graphile_worker.add_jobs(ARRAY( SELECT row(s.task, s.payload::json, s.queue_name, s.run_at::timestamptz, s.max_attempts, s.job_key, s.priority, NULL)::graphile_worker.job_spec FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::int[]) WITH ORDINALITY AS s(task, payload, queue_name, run_at, max_attempts, job_key, priority, n) ORDER BY s.n)) AS added`,
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
 * The raw placement: the statements above through the pool, as our stack sends them (prepared, each on a pooled
 * connection of its own, no transaction around them; the dispatch jobs grouped while a call is under way, as
 * src/platform/lib/batcher.ts groups them); answers what our stack answers (id, client_ref, created_at,
 * order_type, status). Only the JavaScript a raw server needs: an id, the request hash, the amount as a
 * decimal, the job's payload.
 */
export async function rawPlacement(pool: pg.Pool, distributorId: string, body: LumpSumBody): Promise<{ status: number; body: unknown }> {
  const { rows: facts } = await pool.query({ name: "raw-placement-facts", text: PLACEMENT.facts, values: [body.investment_account_id, distributorId, body.scheme_code] });
  const account = facts[0] as { account_id: string | null; investor_id: string; holding_mode: string | null; codes: Array<{ code: string }> } | undefined;
  if (!account?.account_id) throw new Error("no account");
  const id = `ord_${randomUUID().replaceAll("-", "")}`;
  const now = new Date();
  const hash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  const { rows } = await pool.query({ name: "raw-placement-order", text: PLACEMENT.order, values: [
    id, distributorId, account.investor_id, account.account_id, body.order_type, "PENDING", "UNPAID", body.purchase_type, account.holding_mode, body.scheme_code,
    null, body.amount.toFixed(2), null, false, null, null, null, null, null, "{}", null, null, null, null, hash, now,
    account.codes[0]!.code, null,
  ] });
  await dispatchJobsOf(pool).add(id);
  const order = rows[0] as { id: string; clientRef: string | null; createdAt: Date; orderType: string; status: string };
  return { status: 201, body: { id: order.id, client_ref: order.clientRef, created_at: order.createdAt.toISOString(), order_type: order.orderType, status: order.status } };
}

const dispatchBatchers = new WeakMap<pg.Pool, Batcher<string, void>>();
function dispatchJobsOf(pool: pg.Pool): Batcher<string, void> {
  const found = dispatchBatchers.get(pool);
  if (found) return found;
  const batcher = new Batcher<string, void>(async (ids) => {
    const each = <T>(value: T) => ids.map(() => value);
    await pool.query({ name: "raw-placement-jobs", text: PLACEMENT.dispatchJobs, values: [
      each("orders__dispatch"), ids.map((id) => JSON.stringify({ order_id: id })), each(null), each(null), each(5), ids.map((id) => `orders__dispatch:${id}`), each(null),
    ] });
    return each(undefined);
  });
  dispatchBatchers.set(pool, batcher);
  return batcher;
}

/**
 * POST /api/holdings/v1/lookup: one statement, no transaction (the PAN's keyed hash computed first): the PAN's
 * single-holder positions with their schemes' facts and transactions (src/domains/holdings/pan-positions.repo.ts).
 */
export const LOOKUP = `SELECT p.registrar, p.amc_code, p.amc_name, p.folio_no, p.scheme_code, p.isin, p.scheme_name, p.units, p.nav, p.nav_date, p.market_value, p.balance_date, s.category, s.lock_in, COALESCE((SELECT json_agg(json_build_array( t.txn_no, t.type, t.trade_date::text, t.units::text, t.amount_paise::text, t.stamp_duty_paise::text, t.reverses_txn_no) ORDER BY t.trade_date, t.created_at, t.txn_no) FROM holding_transactions t WHERE t.distributor_id = p.distributor_id AND t.registrar = p.registrar AND t.folio_no = p.folio_no AND coalesce(t.scheme_code, t.registrar_scheme_code) = p.scheme_code), '[]'::json) AS txns FROM (SELECT distributor_id, registrar, amc_code, amc_name, folio_no, coalesce(scheme_code, registrar_scheme_code) AS scheme_code, isin, scheme_name, units::text AS units, nav::text AS nav, nav_date::text AS nav_date, market_value::text AS market_value, balance_date::text AS balance_date, registrar_scheme_code FROM holding_positions WHERE pan_hash = $1 AND distributor_id = $2 AND holding_nature = 'SINGLE') AS p LEFT JOIN schemes s ON s.scheme_code = p.scheme_code ORDER BY p.registrar, p.amc_code, p.folio_no, p.registrar_scheme_code`;


/**
 * POST /api/investors/v1 (no Idempotency-Key): one transaction on one connection: BEGIN, the investor with
 * its investment account and bank accounts in one statement (nothing inserted when the distributor holds the
 * PAN), the registration job, COMMIT.
 */
export const INVESTOR_CREATION = {
  investorWithAccounts: `WITH investor AS ( INSERT INTO investors (id, distributor_id, status, pan_hash, details_encrypted, tax_status, holding_type, client_ref, ucc_code, created_at, updated_at, nomination_status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $19) ON CONFLICT (distributor_id, pan_hash) DO NOTHING RETURNING id ), account AS ( INSERT INTO investment_accounts (id, distributor_id, investor_id, holding_mode, created_at) SELECT $11, $2, investor.id, $12, $10 FROM investor ), banks AS ( INSERT INTO bank_accounts (id, distributor_id, investor_id, account_type, account_number_encrypted, account_number_last4, ifsc, is_primary, created_at) SELECT b.id, $2, investor.id, b.account_type, b.encrypted, b.last4, b.ifsc, b.is_primary, $10 FROM investor, unnest($13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::boolean[]) AS b(id, account_type, encrypted, last4, ifsc, is_primary) ) SELECT id FROM investor`,
  registrationJob: `SELECT id FROM graphile_worker.add_job( identifier => $1::text, payload => $2::json, queue_name => $3::text, run_at => $4::timestamptz, max_attempts => $5::int, job_key => $6::text, priority => $7::int)`,
};

/** The parts of the investor body the raw creation reads (the benchmark sends investorBody() of test/helpers/factories.ts). */
export interface InvestorBody {
  primary_holder: { pan: string; name: string };
  tax_status: string;
  holding_type: string;
  contact: unknown;
  address: unknown;
  fatca: unknown;
  nominees?: unknown[];
  demat?: { mode: string };
  bank_accounts: Array<{ account_type: string; account_number: string; ifsc: string; is_primary: boolean }>;
}

/**
 * The raw investor creation: the statements above, in one transaction on one pooled connection, with the
 * same parameters our stack sends: the PAN's keyed hash, the personal details and each account number
 * encrypted with the same cipher (the service's, so the work per request is the same), ids of the same
 * form. Answers the new investor's ids and masked PAN (ours answers its full masked view). Only the
 * JavaScript a raw server needs: no schema, no idempotency, no decryption for the answer.
 */
export async function rawInvestorCreation(pool: pg.Pool, cipher: DataCipher, distributorId: string, body: InvestorBody): Promise<{ status: number; body: unknown }> {
  const id = newId("inv");
  const accountId = newId("iac");
  const mode = body.demat?.mode ?? "PHYSICAL";
  const details = { primary_holder: body.primary_holder, joint_holders: [], guardian: null, contact: body.contact, address: body.address, fatca: body.fatca, nominees: body.nominees ?? [], demat: body.demat ?? { mode } };
  const banks = body.bank_accounts.map((b) => ({ id: newId("bnk"), type: b.account_type, encrypted: cipher.encrypt(b.account_number), last4: b.account_number.slice(-4), ifsc: b.ifsc, primary: b.is_primary }));
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query(INVESTOR_CREATION.investorWithAccounts, [
      id, distributorId, "PENDING", cipher.lookupHash(body.primary_holder.pan), cipher.encrypt(JSON.stringify(details)), body.tax_status, body.holding_type, null, `MF${id.slice(-8).toUpperCase()}`, new Date(),
      accountId, mode, banks.map((b) => b.id), banks.map((b) => b.type), banks.map((b) => b.encrypted), banks.map((b) => b.last4), banks.map((b) => b.ifsc), banks.map((b) => b.primary),
      details.nominees.length > 0 ? "NOMINATED" : "NONE",
    ]);
    if (rows.length === 0) throw new Error("the distributor already holds this PAN");
    await client.query(INVESTOR_CREATION.registrationJob, ["investors__register", JSON.stringify({ investor_id: id }), null, null, null, `investors__register:${id}`, null]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  const pan = body.primary_holder.pan;
  return { status: 201, body: { id, status: "PENDING", pan: maskPan(pan), name: body.primary_holder.name, investment_account_id: accountId, bank_accounts: banks.map((b) => ({ id: b.id, account_number: `XXXXXXXX${b.last4}`, ifsc: b.ifsc })) } };
}
