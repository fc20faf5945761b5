import { notFound, validationError } from "../../platform/lib/errors.js";
import { IsoDate } from "../../platform/lib/formats.js";
import { maskPan } from "../../platform/lib/mask.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { TransactionType } from "../../integrations/registrars/feeds/transaction-types.js";
import type { Registrar } from "../../integrations/registrars/feeds/feed.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { investorPanHash } from "./holdings.repo.js";
import { transactionsByPanHash, type TransactionFilter, type TransactionRow } from "./transactions.repo.js";
import type { TransactionItemView } from "./transactions.schemas.js";

interface PageQuery {
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** GET /api/investors/v1/{id}/transactions: the investor's primary PAN's transactions under the caller's ARN. */
export async function investorTransactions(
  services: Services, caller: Caller, input: PageQuery & { id: string; folio_no?: string; scheme_code?: string; type?: string },
) {
  const filter = pageFilter(input);
  const panHash = await investorPanHash(services.prisma, caller.distributorId, input.id);
  if (panHash === null) throw notFound("Investor");
  const rows = await transactionsByPanHash(services.prisma, caller.distributorId, panHash, {
    ...filter, folioNo: input.folio_no, schemeCode: input.scheme_code, type: input.type,
  });
  return { investor_id: input.id, ...toPage(rows, input.limit, keysOf, toTransactionView) };
}

/** POST /api/holdings/v1/transactions: a PAN's transactions under the caller's ARN (an unknown PAN: an empty page). */
export async function lookupTransactions(services: Services, caller: Caller, input: PageQuery & { pan: string }) {
  const filter = pageFilter(input);
  const rows = await transactionsByPanHash(services.prisma, caller.distributorId, services.cipher.lookupHash(input.pan), filter);
  return { pan: maskPan(input.pan), ...toPage(rows, input.limit, keysOf, toTransactionView) };
}

const DAMAGED_CURSOR = "Unknown or damaged cursor: pass next_cursor as the last page gave it, or start without a cursor";

/** The date range and the cursor, checked: `from` after `to` is a 400 on `from`, as is a cursor not ours. */
function pageFilter(input: PageQuery): TransactionFilter {
  if (input.from !== undefined && input.to !== undefined && input.from > input.to) {
    throw validationError([{ path: "from", message: `must not be after to (${input.to})`, reason: "rule_violated" }]);
  }
  const after = readCursor(input.cursor, 4);
  if (after && (!IsoDate.safeParse(after[0]).success || after.some((key) => key.includes("\u0000")))) {
    throw validationError([{ path: "cursor", message: DAMAGED_CURSOR, reason: "invalid_cursor" }]);
  }
  return { from: input.from, to: input.to, after, limit: input.limit };
}

const keysOf = (row: TransactionRow) => [row.trade_date, row.registrar, row.amc_code, row.txn_no];

const rupees = (paise: string | null) => (paise === null ? null : Number(paise) / 100);
const decimal = (text: string | null) => (text === null ? null : Number(text));

export function toTransactionView(row: TransactionRow): TransactionItemView {
  return {
    id: `${row.registrar}:${row.amc_code}:${row.txn_no}`,
    registrar: row.registrar as Registrar,
    amc_code: row.amc_code,
    folio_no: row.folio_no,
    scheme_code: row.scheme_code,
    scheme_name: row.scheme_name,
    isin: row.isin,
    type: row.type as TransactionType,
    registrar_type_code: row.registrar_type_code,
    transaction_no: row.txn_no,
    reverses_transaction_no: row.reverses_txn_no,
    trade_date: row.trade_date,
    post_date: row.post_date,
    amount: rupees(row.amount_paise),
    units: decimal(row.units),
    nav: decimal(row.nav),
    stamp_duty: rupees(row.stamp_duty_paise),
    stt: rupees(row.stt_paise),
    tds: rupees(row.tds_paise),
  };
}
