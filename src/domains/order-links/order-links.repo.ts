import type { DbOrTx, Prisma, Tx } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { ORDER_TYPES, type OrderType } from "../orders/order-types.js";
import { ORDER_LINK_STATUSES, type OrderLinkStatus } from "./link.states.js";

type StoredLink = Prisma.OrderLinkGetPayload<object>;

/** An order link as stored, its closed-set columns narrowed. */
export type LinkRow = Omit<StoredLink, "status" | "orderType"> & { status: OrderLinkStatus; orderType: OrderType };

function toRow(row: StoredLink): LinkRow {
  return {
    ...row,
    status: narrowTo(ORDER_LINK_STATUSES, row.status, "order_links.status"),
    orderType: narrowTo(ORDER_TYPES, row.orderType, "order_links.order_type"),
  };
}

export interface NewLink {
  id: string;
  distributorId: string;
  investorId: string;
  investmentAccountId: string;
  orderType: OrderType;
  clientRef: string | null;
  proposal: Prisma.InputJsonValue;
  requestHash: string;
  /** Groups every payment attempt of the link (`bsk_`). */
  basketId: string;
  createdAt: Date;
  /** `createdAt` plus the link's hours. */
  expiresAt: Date;
}

/**
 * Inserts an ACTIVE link. Answers null, inserting nothing, when the distributor's client_ref is taken
 * (a concurrent insert of it is waited for; the transaction stays usable to read the winner).
 */
export async function insertLink(tx: DbOrTx, link: NewLink): Promise<LinkRow | null> {
  const [row] = await tx.orderLink.createManyAndReturn({ skipDuplicates: true, data: [{ ...link, status: "ACTIVE" }] });
  return row ? toRow(row) : null;
}

export async function findLinkByClientRef(db: DbOrTx, distributorId: string, clientRef: string): Promise<LinkRow | null> {
  const row = await db.orderLink.findUnique({ where: { distributorId_clientRef: { distributorId, clientRef } } });
  return row && toRow(row);
}

/** One link of one distributor; another distributor's id finds nothing. */
export async function findLink(db: DbOrTx, distributorId: string, id: string): Promise<LinkRow | null> {
  const row = await db.orderLink.findFirst({ where: { id, distributorId } });
  return row && toRow(row);
}

/** A link by its id alone: the public paths, where the id is the capability. */
export async function findLinkById(db: DbOrTx, id: string): Promise<LinkRow | null> {
  const row = await db.orderLink.findUnique({ where: { id } });
  return row && toRow(row);
}

/**
 * Reads a link and locks its row until the transaction ends, so confirmations (and payments) of one
 * link run one after the other: the second sees what the first committed.
 */
export async function lockLink(tx: Tx, id: string): Promise<LinkRow | null> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM order_links WHERE id = ${id} FOR UPDATE`;
  if (locked.length === 0) return null;
  return toRow(await tx.orderLink.findUniqueOrThrow({ where: { id } }));
}

export async function findLinkByOrderId(db: DbOrTx, orderId: string): Promise<LinkRow | null> {
  const row = await db.orderLink.findUnique({ where: { orderId } });
  return row && toRow(row);
}

/**
 * A page of one distributor's links, newest first. A link past `expires_at` counts as EXPIRED even
 * before the expiry job has moved it.
 */
export async function listLinks(
  db: DbOrTx,
  filter: { distributorId: string; status?: OrderLinkStatus; afterId?: string; limit: number; now: Date },
): Promise<LinkRow[]> {
  const byStatus: Prisma.OrderLinkWhereInput =
    filter.status === "ACTIVE"
      ? { status: "ACTIVE", expiresAt: { gt: filter.now } }
      : filter.status === "EXPIRED"
        ? { OR: [{ status: "EXPIRED" }, { status: "ACTIVE", expiresAt: { lte: filter.now } }] }
        : filter.status
          ? { status: filter.status }
          : {};
  const rows = await db.orderLink.findMany({
    where: { distributorId: filter.distributorId, ...byStatus, ...(filter.afterId ? { id: { lt: filter.afterId } } : {}) },
    orderBy: { id: "desc" },
    take: filter.limit + 1,
  });
  return rows.map(toRow);
}

/** ACTIVE -> CANCELLED while not past its expiry; false when the link was not so. */
export async function cancelActive(tx: DbOrTx, id: string, now: Date): Promise<boolean> {
  const { count } = await tx.orderLink.updateMany({ where: { id, status: "ACTIVE", expiresAt: { gt: now } }, data: { status: "CANCELLED" } });
  return count === 1;
}

/** ACTIVE -> EXPIRED once `expires_at` has passed; false otherwise (moved already, or not due). */
export async function expireDue(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const { count } = await db.orderLink.updateMany({ where: { id, status: "ACTIVE", expiresAt: { lte: now } }, data: { status: "EXPIRED" } });
  return count === 1;
}

/** ACTIVE -> CONFIRMED with the order, the consent evidence and the answer given. */
export async function confirmActive(
  tx: DbOrTx,
  id: string,
  data: { orderId: string; confirmation: Prisma.InputJsonValue; consentAt: Date; consentIp: string; consentUserAgent: string | null },
): Promise<boolean> {
  const { count } = await tx.orderLink.updateMany({ where: { id, status: "ACTIVE" }, data: { status: "CONFIRMED", ...data } });
  return count === 1;
}

/** CONFIRMED -> PAID; false when the link was not CONFIRMED. */
export async function markPaid(tx: DbOrTx, id: string): Promise<boolean> {
  const { count } = await tx.orderLink.updateMany({ where: { id, status: "CONFIRMED" }, data: { status: "PAID" } });
  return count === 1;
}

/** The basket of the link's payment attempts, set once. */
export async function setBasketId(tx: DbOrTx, id: string, basketId: string): Promise<void> {
  await tx.orderLink.updateMany({ where: { id, basketId: null }, data: { basketId } });
}
