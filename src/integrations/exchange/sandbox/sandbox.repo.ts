import type { DbOrTx, Prisma } from "../../../platform/db/client.js";
import { narrowTo } from "../../../platform/lib/closed-set.js";

/** The sandbox's books: one record per registration, order or payment the exchange (or gateway) received, and per broker change the registrar received. */
export type SandboxRecord = Omit<Prisma.SandboxExchangeRecordGetPayload<object>, "kind" | "status"> & { kind: RecordKind; status: RecordStatus };

/** sandbox_exchange_records.kind and .status (the database checks the same lists). */
export const RECORD_KINDS = ["UCC", "MANDATE", "ORDER", "PAYMENT", "BROKER_CHANGE", "UCC_CHANGE"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];
export const RECORD_STATUSES = ["PENDING", "REGISTERED", "REJECTED", "CANCELLED", "ACCEPTED", "ALLOTTED", "CAPTURED", "FAILED", "REFUNDED"] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

function toRecord(row: Prisma.SandboxExchangeRecordGetPayload<object>): SandboxRecord {
  return {
    ...row,
    kind: narrowTo(RECORD_KINDS, row.kind, "sandbox_exchange_records.kind"),
    status: narrowTo(RECORD_STATUSES, row.status, "sandbox_exchange_records.status"),
  };
}

export async function findRecord(db: DbOrTx, kind: RecordKind, reference: string): Promise<SandboxRecord | null> {
  const row = await db.sandboxExchangeRecord.findUnique({ where: { kind_reference: { kind, reference } } });
  return row && toRecord(row);
}

export async function getRecord(db: DbOrTx, kind: RecordKind, reference: string): Promise<SandboxRecord> {
  return toRecord(await db.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind, reference } } }));
}

/** The records of `references`; with `status`, only those in it. */
export async function findRecords(db: DbOrTx, kind: RecordKind, references: string[], status?: RecordStatus): Promise<SandboxRecord[]> {
  const rows = await db.sandboxExchangeRecord.findMany({ where: { kind, reference: { in: references }, ...(status ? { status } : {}) } });
  return rows.map(toRecord);
}

/** Inserts a record unless one exists for the reference (the first one wins). */
export async function insertRecordOnce(
  db: DbOrTx,
  record: { kind: RecordKind; reference: string; status: RecordStatus; remark: string | null; payload: Prisma.InputJsonValue },
): Promise<void> {
  await db.sandboxExchangeRecord.createMany({ data: [record], skipDuplicates: true });
}

export type NewRecord = { kind: RecordKind; reference: string; status: RecordStatus; remark: string | null; payload: Prisma.InputJsonValue };

/**
 * Books records once and answers, in order, each one's booked status and remark: the first booking of a
 * reference wins, a repeat gets it back. One statement when every reference is new (the insert answers
 * them), one more read for repeats (a hot path: every dispatched order is booked here).
 */
export async function bookOnce(db: DbOrTx, records: readonly NewRecord[]): Promise<Array<Pick<SandboxRecord, "status" | "remark">>> {
  const key = (kind: string, reference: string) => `${kind}\u0000${reference}`;
  const inserted = await db.$queryRaw<Array<{ kind: string; reference: string; status: string; remark: string | null }>>`
    INSERT INTO sandbox_exchange_records (kind, reference, status, remark, payload)
    SELECT r.kind, r.reference, r.status, r.remark, r.payload::jsonb
      FROM unnest(${records.map((r) => r.kind)}::text[], ${records.map((r) => r.reference)}::text[], ${records.map((r) => r.status)}::text[],
                  ${records.map((r) => r.remark)}::text[], ${records.map((r) => JSON.stringify(r.payload))}::text[])
           AS r(kind, reference, status, remark, payload)
    ON CONFLICT (kind, reference) DO NOTHING
    RETURNING kind, reference, status, remark`;
  const booked = new Map(inserted.map((r) => [key(r.kind, r.reference), { status: narrowTo(RECORD_STATUSES, r.status, "sandbox_exchange_records.status"), remark: r.remark }]));
  for (const record of records) {
    if (!booked.has(key(record.kind, record.reference))) {
      const { status, remark } = await getRecord(db, record.kind, record.reference);
      booked.set(key(record.kind, record.reference), { status, remark });
    }
  }
  return records.map((r) => booked.get(key(r.kind, r.reference))!);
}

/** Sets a record's status and remark (and payload, when given), creating it (empty payload) if it is new. */
export async function upsertRecord(
  db: DbOrTx,
  kind: RecordKind,
  reference: string,
  data: { status: RecordStatus; remark: string | null; payload?: Prisma.InputJsonValue },
): Promise<void> {
  await db.sandboxExchangeRecord.upsert({
    where: { kind_reference: { kind, reference } },
    create: { kind, reference, payload: {}, ...data },
    update: data,
  });
}

/** A record still PENDING gets its decision; a decided one keeps it. */
export async function decidePending(db: DbOrTx, kind: RecordKind, reference: string, data: { status: RecordStatus; remark: string | null }): Promise<void> {
  await db.sandboxExchangeRecord.updateMany({ where: { kind, reference, status: "PENDING" }, data });
}

/** Merges `patch` into a record's payload (top-level keys); a record not booked stays absent. */
export async function mergePayload(db: DbOrTx, kind: RecordKind, reference: string, patch: Record<string, unknown>): Promise<void> {
  await db.$executeRaw`
    UPDATE sandbox_exchange_records SET payload = payload || ${JSON.stringify(patch)}::jsonb, updated_at = now()
     WHERE kind = ${kind} AND reference = ${reference}`;
}

/** The records of `kind` booked from `from` (inclusive) to `to` (exclusive), in booking order. */
export async function recordsBookedBetween(db: DbOrTx, kind: RecordKind, from: Date, to: Date): Promise<SandboxRecord[]> {
  const rows = await db.sandboxExchangeRecord.findMany({ where: { kind, createdAt: { gte: from, lt: to } }, orderBy: [{ createdAt: "asc" }, { reference: "asc" }] });
  return rows.map(toRecord);
}
