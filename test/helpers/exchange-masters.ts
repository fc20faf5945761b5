/**
 * The exchange's downloadable masters as tests write them (exchange-masters.md): the published header names, in
 * their published order and spelling (the en dash included), and a file of rows keyed by those names.
 */
export const SCHEME_MASTER_HEADER = [
  "Unique No", "Scheme Code", "RTA Scheme Code", "AMC Scheme Code", "ISIN", "AMC Code", "Scheme Type", "Scheme Plan", "Scheme Name",
  "Purchase Allowed", "Purchase Transaction mode", "Minimum Purchase Amount", "Additional Purchase Amount", "Maximum Purchase Amount",
  "Purchase Amount Multiplier", "Purchase Cutoff Time", "Redemption Allowed", "Redemption Transaction Mode", "Minimum Redemption Qty",
  "Redemption Qty Multiplier", "Maximum Redemption Qty", "Redemption Amount - Minimum", "Redemption Amount \u2013 Maximum",
  "Redemption Amount Multiple", "Redemption Cut off Time", "RTA Agent Code", "AMC Active Flag", "Dividend Reinvestment Flag", "SIP FLAG",
  "STP FLAG", "SWP Flag", "Switch FLAG", "SETTLEMENT TYPE", "AMC_IND", "Face Value", "Start Date", "End Date", "Exit Load Flag", "Exit Load",
  "Lock-in Period Flag", "Lock-in Period", "Channel Partner Code", "ReOpening Date",
];

export const SIP_MASTER_HEADER = [
  "AMC CODE", "AMC NAME", "SCHEME CODE", "SCHEME NAME", "SIP TRANSACTION MODE", "SIP FREQUENCY", "SIP DATES", "SIP MINIMUM GAP", "SIP MAXIMUM GAP",
  "SIP INSTALLMENT GAP", "SIP STATUS", "SIP MINIMUM INSTALLMENT AMOUNT", "SIP MAXIMUM INSTALLMENT AMOUNT", "SIP MULTIPLIER AMOUNT",
  "SIP MINIMUM INSTALLMENT NUMBERS", "SIP MAXIMUM INSTALLMENT NUMBERS", "SCHEME ISIN", "SCHEME TYPE", "PAUSE FLAG", "PAUSE MINIMUM INSTALLMENTS",
  "PAUSE MAXIMUM INSTALLMENTS", "PAUSE MODIFICATION COUNT", "FILLER 1", "FILLER 2", "FILLER 3", "FILLER 4", "FILLER 5",
];

export type MasterRow = Record<string, string>;

/** A master file (CRLF lines, as downloaded): the header line (`headerLine` for a header spelled otherwise), then each row's cells in `header`'s order. */
export const masterFile = (header: readonly string[], rows: MasterRow[], headerLine = header.join("|")) =>
  [headerLine, ...rows.map((r) => header.map((h) => r[h] ?? "").join("|"))].join("\r\n") + "\r\n";
