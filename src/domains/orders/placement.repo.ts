import { readRows, type DbOrTx } from "../../platform/db/client.js";
import { HOLDING_MODES, INVESTOR_STATUSES, type HoldingMode, type InvestorStatus } from "../investors/investor.states.js";
import { NOMINATION_STATUSES, type NominationStatus } from "../investors/consent.states.js";
import { Decimal } from "../../platform/lib/money.js";
import { EXCHANGE_TRANSACTION_MODES } from "../../integrations/exchange/masters/scheme-master.js";
import type { ExchangeSchemeRow } from "../masters/exchange-schemes.repo.js";
import { narrowOrNull, narrowTo } from "../../platform/lib/closed-set.js";

/**
 * What placement reads before it decides (orders.service.ts checkOrder, the rules in rules.ts and
 * exchange-rules.ts): the distributor's investment account with its investor, and the schemes the order names
 * with their exchange codes and SIP master rows.
 */

/** What placement reads of the distributor's investment account: its investor's state and bank accounts. */
export interface PlacementAccount {
  id: string;
  investorId: string;
  holdingMode: HoldingMode | null;
  /** The investor's bank accounts (never a removed one); `beingRemoved`: a removal the exchange has not yet decided names it. */
  /** nominationStatus null: not yet derived (an investor from before the column; investors__derive_nomination). */
  investor: { status: InvestorStatus; nominationStatus: NominationStatus | null; bankAccounts: Array<{ id: string; beingRemoved: boolean }> };
}

/** A SIP master row of an exchange code, as placement checks it. */
export interface PlacementSipRule {
  frequency: string;
  dates: number[];
  active: boolean;
  minAmount: Decimal | null;
  maxAmount: Decimal | null;
  multiple: Decimal | null;
  minInstallments: number | null;
  maxInstallments: number | null;
  /** Days from registration to the first installment, at least and at most. */
  minGapDays: number | null;
  maxGapDays: number | null;
}

/** What choosing a code reads of an exchange row (orders/exchange-code.ts). */
export type CodeCandidate = Pick<
  ExchangeSchemeRow,
  "code" | "uniqueNo" | "isin" | "transactionMode" | "active" | "amcActive" | "startDate" | "endDate" | "reopeningDate" |
  "purchaseAllowed" | "redemptionAllowed" | "sipAllowed" | "stpAllowed" | "swpAllowed" | "switchAllowed"
>;

/** An exchange code of the scheme, with the rules placement checks (exchange_schemes and its SIP rules). */
export interface PlacementCode extends CodeCandidate {
  schemeType: string | null;
  minPurchaseAmount: Decimal | null;
  minAdditionalAmount: Decimal | null;
  maxPurchaseAmount: Decimal | null;
  purchaseMultiple: Decimal | null;
  minRedemptionAmount: Decimal | null;
  maxRedemptionAmount: Decimal | null;
  redemptionAmountMultiple: Decimal | null;
  minRedemptionUnits: Decimal | null;
  maxRedemptionUnits: Decimal | null;
  redemptionUnitsMultiple: Decimal | null;
  sipRules: PlacementSipRule[];
}

/** The scheme placement names: our master's row (its ISINs, the NAV its holding check values units at) and its exchange codes. */
export interface PlacementScheme {
  schemeCode: string;
  isinGrowth: string | null;
  isinReinvestment: string | null;
  nav: Decimal | null;
  codes: PlacementCode[];
}

/**
 * The exchange codes of the scheme aliased `s`, as one JSON array (numbers as text, so they stay exact), each
 * with its SIP rules: a subquery of the placement statements.
 */
const EXCHANGE_CODES_JSON = `COALESCE((
  SELECT json_agg(json_build_object(
    'code', e.code, 'unique_no', e.unique_no, 'isin', e.isin, 'transaction_mode', e.transaction_mode, 'active', e.active,
    'amc_active', e.amc_active, 'start_date', e.start_date::text, 'end_date', e.end_date::text, 'reopening_date', e.reopening_date::text,
    'purchase_allowed', e.purchase_allowed, 'redemption_allowed', e.redemption_allowed, 'sip_allowed', e.sip_allowed,
    'stp_allowed', e.stp_allowed, 'swp_allowed', e.swp_allowed, 'switch_allowed', e.switch_allowed, 'scheme_type', e.scheme_type,
    'min_purchase_amount', e.min_purchase_amount::text, 'min_additional_amount', e.min_additional_amount::text,
    'max_purchase_amount', e.max_purchase_amount::text, 'purchase_multiple', e.purchase_multiple::text,
    'min_redemption_amount', e.min_redemption_amount::text, 'max_redemption_amount', e.max_redemption_amount::text,
    'redemption_amount_multiple', e.redemption_amount_multiple::text, 'min_redemption_units', e.min_redemption_units::text,
    'max_redemption_units', e.max_redemption_units::text, 'redemption_units_multiple', e.redemption_units_multiple::text,
    'sip_rules', COALESCE((SELECT json_agg(json_build_object(
        'frequency', r.frequency, 'dates', r.dates, 'active', r.active, 'min_amount', r.min_amount::text, 'max_amount', r.max_amount::text,
        'multiple', r.multiple::text, 'min_installments', r.min_installments, 'max_installments', r.max_installments,
        'min_gap_days', r.min_gap_days, 'max_gap_days', r.max_gap_days) ORDER BY r.frequency)
      FROM exchange_sip_rules r WHERE r.code = e.code), '[]'::json)
  ) ORDER BY e.unique_no NULLS LAST, e.code)
  FROM exchange_schemes e WHERE e.isin = s.isin_growth OR e.isin = s.isin_reinvestment), '[]'::json)`;

interface StoredCode {
  code: string; unique_no: number | null; isin: string; transaction_mode: string; active: boolean; amc_active: boolean;
  start_date: string | null; end_date: string | null; reopening_date: string | null;
  purchase_allowed: boolean; redemption_allowed: boolean; sip_allowed: boolean; stp_allowed: boolean; swp_allowed: boolean; switch_allowed: boolean;
  scheme_type: string | null;
  min_purchase_amount: string | null; min_additional_amount: string | null; max_purchase_amount: string | null; purchase_multiple: string | null;
  min_redemption_amount: string | null; max_redemption_amount: string | null; redemption_amount_multiple: string | null;
  min_redemption_units: string | null; max_redemption_units: string | null; redemption_units_multiple: string | null;
  sip_rules: Array<{
    frequency: string; dates: number[] | null; active: boolean; min_amount: string | null; max_amount: string | null; multiple: string | null;
    min_installments: number | null; max_installments: number | null; min_gap_days: number | null; max_gap_days: number | null;
  }>;
}

const dateOrNull = (text: string | null) => (text === null ? null : new Date(`${text}T00:00:00Z`));

function toPlacementCode(c: StoredCode): PlacementCode {
  return {
    code: c.code, uniqueNo: c.unique_no, isin: c.isin, active: c.active, amcActive: c.amc_active,
    transactionMode: narrowTo(EXCHANGE_TRANSACTION_MODES, c.transaction_mode, "exchange_schemes.transaction_mode"),
    startDate: dateOrNull(c.start_date), endDate: dateOrNull(c.end_date), reopeningDate: dateOrNull(c.reopening_date),
    purchaseAllowed: c.purchase_allowed, redemptionAllowed: c.redemption_allowed, sipAllowed: c.sip_allowed,
    stpAllowed: c.stp_allowed, swpAllowed: c.swp_allowed, switchAllowed: c.switch_allowed, schemeType: c.scheme_type,
    minPurchaseAmount: decimal(c.min_purchase_amount), minAdditionalAmount: decimal(c.min_additional_amount),
    maxPurchaseAmount: decimal(c.max_purchase_amount), purchaseMultiple: decimal(c.purchase_multiple),
    minRedemptionAmount: decimal(c.min_redemption_amount), maxRedemptionAmount: decimal(c.max_redemption_amount),
    redemptionAmountMultiple: decimal(c.redemption_amount_multiple), minRedemptionUnits: decimal(c.min_redemption_units),
    maxRedemptionUnits: decimal(c.max_redemption_units), redemptionUnitsMultiple: decimal(c.redemption_units_multiple),
    sipRules: c.sip_rules.map((r) => ({
      frequency: r.frequency, dates: r.dates ?? [], active: r.active, minAmount: decimal(r.min_amount), maxAmount: decimal(r.max_amount),
      multiple: decimal(r.multiple), minInstallments: r.min_installments, maxInstallments: r.max_installments,
      minGapDays: r.min_gap_days, maxGapDays: r.max_gap_days,
    })),
  };
}

/**
 * What every placement reads before it decides, in one statement: the distributor's investment account
 * (null when it is not theirs) with its investor's status and bank account ids, and the scheme named with its
 * exchange codes (null when the master has none, or none was named).
 */
export async function readPlacementFacts(
  db: DbOrTx,
  distributorId: string,
  accountId: string,
  schemeCode: string | null,
): Promise<{ account: PlacementAccount | null; scheme: PlacementScheme | null }> {
  const [row] = await readRows<PlacementFactsRow>(
    db,
    `SELECT a.id AS account_id, a.investor_id, a.holding_mode, i.status AS investor_status, i.nomination_status,
            ARRAY(SELECT b.id FROM bank_accounts b WHERE b.investor_id = a.investor_id AND b.removed_at IS NULL) AS bank_account_ids,
            ARRAY(SELECT b.id FROM bank_accounts b JOIN investor_changes c ON c.id = b.removal_change_id AND c.status = 'PENDING'
                   WHERE b.investor_id = a.investor_id AND b.removed_at IS NULL) AS removing_bank_account_ids,
            s.scheme_code, s.isin_growth, s.isin_reinvestment, s.nav::text AS nav,
            CASE WHEN s.scheme_code IS NULL THEN NULL ELSE ${EXCHANGE_CODES_JSON} END AS codes
       FROM (SELECT 1) AS one
       LEFT JOIN (investment_accounts a JOIN investors i ON i.id = a.investor_id) ON a.id = $1 AND a.distributor_id = $2
       LEFT JOIN schemes s ON s.scheme_code = $3`,
    accountId,
    distributorId,
    schemeCode,
  );
  if (!row) throw new Error("The placement facts query answered no row");
  const account: PlacementAccount | null = row.account_id === null ? null : {
    id: row.account_id,
    investorId: row.investor_id!,
    holdingMode: narrowOrNull(HOLDING_MODES, row.holding_mode, "investment_accounts.holding_mode"),
    investor: {
      status: narrowTo(INVESTOR_STATUSES, row.investor_status!, "investors.status"),
      nominationStatus: narrowOrNull(NOMINATION_STATUSES, row.nomination_status, "investors.nomination_status"),
      bankAccounts: row.bank_account_ids!.map((id) => ({ id, beingRemoved: row.removing_bank_account_ids!.includes(id) })),
    },
  };
  return { account, scheme: toPlacementScheme(row) };
}

/** Another scheme an order names (a switch's or STP's target, a top-up's SIP's scheme), as readPlacementFacts reads the first. */
export async function readPlacementScheme(db: DbOrTx, schemeCode: string): Promise<PlacementScheme | null> {
  const [row] = await readRows<SchemeFactsRow>(
    db,
    `SELECT s.scheme_code, s.isin_growth, s.isin_reinvestment, s.nav::text AS nav, ${EXCHANGE_CODES_JSON} AS codes
       FROM schemes s WHERE s.scheme_code = $1`,
    schemeCode,
  );
  return row ? toPlacementScheme(row) : null;
}

function toPlacementScheme(row: SchemeFactsRow): PlacementScheme | null {
  if (row.scheme_code === null) return null;
  return {
    schemeCode: row.scheme_code,
    isinGrowth: row.isin_growth,
    isinReinvestment: row.isin_reinvestment,
    nav: decimal(row.nav),
    codes: (row.codes ?? []).map(toPlacementCode),
  };
}

interface SchemeFactsRow {
  scheme_code: string | null;
  isin_growth: string | null;
  isin_reinvestment: string | null;
  nav: string | null;
  codes: StoredCode[] | null;
}

interface PlacementFactsRow extends SchemeFactsRow {
  account_id: string | null;
  investor_id: string | null;
  holding_mode: string | null;
  investor_status: string | null;
  nomination_status: string | null;
  bank_account_ids: string[] | null;
  removing_bank_account_ids: string[] | null;
}

const decimal = (text: string | null) => (text === null ? null : new Decimal(text));
