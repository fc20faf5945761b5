import { z } from "zod";
import { IsoDate, Pan } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { REGISTRARS } from "../../integrations/registrars/feeds/feed.js";
import { TRANSACTION_TYPES } from "../../integrations/registrars/feeds/transaction-types.js";
import { InvestorId } from "../investors/investors.schemas.js";
import { InvestorIdView } from "../shared/fields.schemas.js";

const From = IsoDate.optional().describe("Only transactions traded on or after this date (YYYY-MM-DD, inclusive).");
const To = IsoDate.optional().describe("Only transactions traded on or before this date (YYYY-MM-DD, inclusive); not before `from`.");
const PAGE = Limit(100, 20);

export const InvestorTransactionsInput = z.strictObject({
  id: InvestorId,
  folio_no: z.string().trim().min(1).max(30).optional().describe("Only this folio's transactions."),
  scheme_code: z.string().trim().min(1).max(30).optional().describe("Only this scheme's: our scheme master's code, else the registrar's scheme code (as positions show it)."),
  type: z.enum(TRANSACTION_TYPES).optional().describe("Only transactions of this type."),
  from: From,
  to: To,
  limit: PAGE,
  cursor: Cursor,
});

export const TransactionsLookupRequest = z.strictObject({
  pan: Pan,
  from: From,
  to: To,
  limit: PAGE,
  cursor: Cursor,
});

const Rupees = (what: string) => z.number().nullable().describe(`${what}, rupees, 2 decimals; null when the registrar gave none.`);

export const TransactionView = z.object({
  id: z.string().describe("The transaction's key: registrar, AMC code and the registrar's transaction number, joined by ':'."),
  registrar: z.enum(REGISTRARS).describe("The registrar that reported the transaction."),
  amc_code: z.string().describe("The AMC code as the registrar reports it."),
  folio_no: z.string().describe("Unique only within an AMC; may contain '/'."),
  scheme_code: z.string().describe("Our scheme master's code when the ISIN maps to one (usable in orders), else the registrar's scheme code."),
  scheme_name: z.string().nullable().describe("From the scheme master, else as the registrar named it; null when neither does."),
  isin: describeAfter(z.string().nullable(), "The scheme's ISIN."),
  type: z.enum(TRANSACTION_TYPES).describe("What the transaction did, from the registrar's code (registrar_type_code)."),
  registrar_type_code: z.string().describe("The registrar's own transaction type code (CAMS TRXNTYPE, KFintech TD_TRTYPE)."),
  transaction_no: z.string().describe("The registrar's transaction number (unique with the registrar and the AMC)."),
  reverses_transaction_no: z.string().nullable().describe("A REVERSAL's: the number of the transaction it reverses; else null."),
  trade_date: z.string().describe("The trade (NAV) date (YYYY-MM-DD)."),
  post_date: z.string().nullable().describe("The date the registrar posted it (YYYY-MM-DD)."),
  amount: Rupees("The gross amount (a magnitude: `type` says which way the money went)"),
  units: z.number().nullable().describe("Units, 3 decimals (a magnitude: `type` says which way they went)."),
  nav: z.number().nullable().describe("The NAV applied, 4 decimals."),
  stamp_duty: Rupees("Stamp duty"),
  stt: Rupees("Securities transaction tax"),
  tds: Rupees("Tax deducted at source"),
});

const Transactions = z.array(TransactionView).describe("The transactions on this page, newest first (trade date, then transaction).");

export const InvestorTransactionPage = z.object({
  investor_id: InvestorIdView,
  data: Transactions,
  next_cursor: NextCursor,
});

export const TransactionsLookupResponse = z.object({
  pan: z.string().describe("The PAN, masked (ABXXXXX34F)."),
  data: Transactions,
  next_cursor: NextCursor,
});

export type TransactionItemView = z.infer<typeof TransactionView>;
