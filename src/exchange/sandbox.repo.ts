import type { DbOrTx, Prisma } from "../db/client.js";

/** The sandbox exchange's books: one record per registration, order or payment it received. */
export type SandboxRecord = Prisma.SandboxExchangeRecordGetPayload<object>;
export type RecordKind = "UCC" | "MANDATE" | "ORDER" | "PAYMENT";

export async function findRecord(db: DbOrTx, kind: RecordKind, reference: string): Promise<SandboxRecord | null> {
  return db.sandboxExchangeRecord.findUnique({ where: { kind_reference: { kind, reference } } });
}

export async function getRecord(db: DbOrTx, kind: RecordKind, reference: string): Promise<SandboxRecord> {
  return db.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind, reference } } });
}

/** The records of `references`; with `status`, only those in it. */
export async function findRecords(db: DbOrTx, kind: RecordKind, references: string[], status?: string): Promise<SandboxRecord[]> {
  return db.sandboxExchangeRecord.findMany({ where: { kind, reference: { in: references }, ...(status ? { status } : {}) } });
}

/** Inserts a record unless one exists for the reference (the first one wins). */
export async function insertRecordOnce(
  db: DbOrTx,
  record: { kind: RecordKind; reference: string; status: string; remark: string | null; payload: Prisma.InputJsonValue },
): Promise<void> {
  await db.sandboxExchangeRecord.createMany({ data: [record], skipDuplicates: true });
}

/** Sets a record's status and remark (and payload, when given), creating it (empty payload) if it is new. */
export async function upsertRecord(
  db: DbOrTx,
  kind: RecordKind,
  reference: string,
  data: { status: string; remark: string | null; payload?: Prisma.InputJsonValue },
): Promise<void> {
  await db.sandboxExchangeRecord.upsert({
    where: { kind_reference: { kind, reference } },
    create: { kind, reference, payload: {}, ...data },
    update: data,
  });
}

/** A record still PENDING gets its decision; a decided one keeps it. */
export async function decidePending(db: DbOrTx, kind: RecordKind, reference: string, data: { status: string; remark: string | null }): Promise<void> {
  await db.sandboxExchangeRecord.updateMany({ where: { kind, reference, status: "PENDING" }, data });
}
