import type { DbOrTx, Prisma, Tx } from "../../platform/db/client.js";
import { narrowOrNull, narrowTo } from "../../platform/lib/closed-set.js";
import { BROKER_CHANGE_STATUSES, type BrokerChangeStatus } from "./broker-change.states.js";
import { AUTH_MODES, DOCUMENT_CONTENT_TYPES, TWO_FA_CHANNELS, type AuthMode, type DocumentContentType, type TwoFaChannel } from "../../integrations/registrars/port.js";

/** What a record shows of its stored form: never the bytes. */
const DOCUMENT_INFO = { select: { contentType: true, size: true, sha256: true, createdAt: true } } as const;
const WITH_DOCUMENT_INFO = { document: DOCUMENT_INFO } as const;

type StoredChange = Prisma.BrokerChangeGetPayload<{ include: typeof WITH_DOCUMENT_INFO }>;

export interface DocumentInfo {
  contentType: DocumentContentType;
  size: number;
  sha256: string;
  createdAt: Date;
}

/** A broker change request as stored, its closed-set columns narrowed, with its form's metadata (null before upload). */
export type BrokerChangeRow = Omit<StoredChange, "status" | "authMode" | "twoFaChannel" | "document"> & {
  status: BrokerChangeStatus;
  authMode: AuthMode;
  twoFaChannel: TwoFaChannel | null;
  document: DocumentInfo | null;
};

function toRow({ document, ...row }: StoredChange): BrokerChangeRow {
  return {
    ...row,
    status: narrowTo(BROKER_CHANGE_STATUSES, row.status, "broker_changes.status"),
    authMode: narrowTo(AUTH_MODES, row.authMode, "broker_changes.auth_mode"),
    twoFaChannel: narrowOrNull(TWO_FA_CHANNELS, row.twoFaChannel, "broker_changes.two_fa_channel"),
    document: document && { ...document, contentType: narrowTo(DOCUMENT_CONTENT_TYPES, document.contentType, "broker_change_documents.content_type") },
  };
}

export interface NewBrokerChange {
  id: string;
  distributorId: string;
  investorId: string;
  amcCode: string;
  folioNo: string;
  authMode: AuthMode;
  twoFaChannel: TwoFaChannel | null;
  status: BrokerChangeStatus;
  brokerCode: string;
  clientRef: string | null;
  euin: string | null;
  subBrokerCode: string | null;
  riaCode: string | null;
  createdAt: Date;
}

export async function insertBrokerChange(tx: DbOrTx, change: NewBrokerChange): Promise<BrokerChangeRow> {
  return toRow(await tx.brokerChange.create({ data: { ...change, updatedAt: change.createdAt }, include: WITH_DOCUMENT_INFO }));
}

/** One request of one distributor; another distributor's id finds nothing. */
export async function findBrokerChange(db: DbOrTx, distributorId: string, id: string): Promise<BrokerChangeRow | null> {
  const row = await db.brokerChange.findFirst({ where: { id, distributorId }, include: WITH_DOCUMENT_INFO });
  return row && toRow(row);
}

/** For jobs, which act for whichever distributor owns the request. */
export async function findBrokerChangeById(db: DbOrTx, id: string): Promise<BrokerChangeRow | null> {
  const row = await db.brokerChange.findUnique({ where: { id }, include: WITH_DOCUMENT_INFO });
  return row && toRow(row);
}

/**
 * Reads one distributor's request and locks its row until the transaction ends, so two uploads of
 * one form run one after the other: the second sees the first's SUBMITTED.
 */
export async function lockBrokerChange(tx: Tx, distributorId: string, id: string): Promise<BrokerChangeRow | null> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM broker_changes WHERE id = ${id} AND distributor_id = ${distributorId} FOR UPDATE`;
  if (locked.length === 0) return null;
  return toRow(await tx.brokerChange.findUniqueOrThrow({ where: { id }, include: WITH_DOCUMENT_INFO }));
}

/** A page of one distributor's requests, newest first. */
export async function listBrokerChanges(
  db: DbOrTx,
  filter: { distributorId: string; status?: BrokerChangeStatus; investorId?: string; afterId?: string; limit: number },
): Promise<BrokerChangeRow[]> {
  const rows = await db.brokerChange.findMany({
    where: {
      distributorId: filter.distributorId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.investorId ? { investorId: filter.investorId } : {}),
      ...(filter.afterId ? { id: { lt: filter.afterId } } : {}),
    },
    orderBy: { id: "desc" },
    take: filter.limit + 1,
    include: WITH_DOCUMENT_INFO,
  });
  return rows.map(toRow);
}

/** Stores the signed form (one per request: the key is the request's id). */
export async function insertDocument(
  tx: DbOrTx,
  document: { brokerChangeId: string; contentType: DocumentContentType; size: number; sha256: string; bytes: Buffer; createdAt: Date },
): Promise<void> {
  // A view of the same memory (no copy of up to 10 MB); a Buffer's store is never shared across threads here.
  const bytes = new Uint8Array(document.bytes.buffer as ArrayBuffer, document.bytes.byteOffset, document.bytes.byteLength);
  await tx.brokerChangeDocument.create({ data: { ...document, bytes } });
}

/** The stored form with its bytes, of one distributor's request; null when none is stored. */
export async function findDocument(db: DbOrTx, distributorId: string, brokerChangeId: string) {
  const row = await db.brokerChangeDocument.findFirst({ where: { brokerChangeId, brokerChange: { distributorId } } });
  return row && { ...row, contentType: narrowTo(DOCUMENT_CONTENT_TYPES, row.contentType, "broker_change_documents.content_type") };
}

/** Moves a request from one status to another; false when it was no longer in `from`. */
export async function moveStatus(
  tx: DbOrTx,
  id: string,
  from: BrokerChangeStatus,
  to: { status: BrokerChangeStatus; providerRemark?: string | null },
): Promise<boolean> {
  const { count } = await tx.brokerChange.updateMany({ where: { id, status: from }, data: to });
  return count === 1;
}

/** The registrar has taken a SUBMITTED request (once: a later call changes nothing). */
export async function markHandedOver(db: DbOrTx, id: string, registrarReference: string | null, at: Date): Promise<boolean> {
  const { count } = await db.brokerChange.updateMany({ where: { id, handedOverAt: null }, data: { handedOverAt: at, registrarReference } });
  return count === 1;
}
