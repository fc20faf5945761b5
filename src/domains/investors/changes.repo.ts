import type { DbOrTx } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import { INVESTOR_CHANGE_STATUSES, type InvestorChangeStatus } from "./investor.states.js";

/** A row of investor_changes, its status narrowed. */
export interface InvestorChangeRow {
  id: string;
  distributorId: string;
  investorId: string;
  status: InvestorChangeStatus;
  fields: string[];
  valuesEncrypted: string;
  providerRemark: string | null;
  requestedAt: Date;
  decidedAt: Date | null;
}

const toRow = <R extends { status: string }>(row: R) => ({ ...row, status: narrowTo(INVESTOR_CHANGE_STATUSES, row.status, "investor_changes.status") });

/** Holds the investor's row until the transaction ends, so that two changes of it are made one after the other. */
export async function lockInvestor(tx: DbOrTx, investorId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT id FROM investors WHERE id = $1 FOR UPDATE`, investorId);
}

export async function insertChange(
  tx: DbOrTx,
  change: { id: string; distributorId: string; investorId: string; fields: string[]; valuesEncrypted: string },
): Promise<InvestorChangeRow> {
  return toRow(await tx.investorChange.create({ data: { ...change, status: "PENDING" } }));
}

/** The investor's latest change (null when it has none). */
export async function latestChange(db: DbOrTx, investorId: string): Promise<InvestorChangeRow | null> {
  const row = await db.investorChange.findFirst({ where: { investorId }, orderBy: [{ requestedAt: "desc" }, { id: "desc" }] });
  return row && toRow(row);
}

export async function findChange(db: DbOrTx, id: string): Promise<InvestorChangeRow | null> {
  const row = await db.investorChange.findUnique({ where: { id } });
  return row && toRow(row);
}

/** Moves a PENDING change; false when it was no longer PENDING (decided already). */
export async function decideChange(tx: DbOrTx, id: string, to: { status: "APPLIED" | "REJECTED"; providerRemark: string | null }): Promise<boolean> {
  const { count } = await tx.investorChange.updateMany({
    where: { id, status: "PENDING" },
    data: { status: to.status, providerRemark: maskFreeText(to.providerRemark), decidedAt: new Date() },
  });
  return count === 1;
}

/** The exchange's remark on a change still PENDING. */
export async function setChangeRemark(db: DbOrTx, id: string, providerRemark: string | null): Promise<void> {
  await db.investorChange.updateMany({ where: { id, status: "PENDING" }, data: { providerRemark: maskFreeText(providerRemark) } });
}

/**
 * The investor's details, replaced (encrypted): a PENDING investor changed in place, or a change the exchange
 * applied. Nominees make the nomination NOMINATED and end an earlier opt-out; without them it is OPTED_OUT
 * while a confirmed opt-out stands, else NONE.
 */
export async function replaceDetails(tx: DbOrTx, investorId: string, detailsEncrypted: string, hasNominees: boolean): Promise<void> {
  const { nominationOptedOutAt } = await tx.investor.findUniqueOrThrow({ where: { id: investorId }, select: { nominationOptedOutAt: true } });
  const nomination = hasNominees
    ? { nominationStatus: "NOMINATED", nominationOptedOutAt: null, nominationConsentId: null }
    : { nominationStatus: nominationOptedOutAt ? "OPTED_OUT" : "NONE" };
  await tx.investor.update({ where: { id: investorId }, data: { detailsEncrypted, ...nomination } });
}
