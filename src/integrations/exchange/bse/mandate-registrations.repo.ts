import type { DbOrTx } from "../../../platform/db/client.js";

/**
 * `bse_mandate_registrations`: a flag 06 registration is recorded before it is sent and answered after,
 * so a retry knows whether one may be at the exchange without our hearing of it.
 */

export async function mandateRegistrationSent(db: DbOrTx, mandateId: string) {
  return db.bseMandateRegistration.findUnique({ where: { mandateId } });
}

/** A registration goes now (again): its answer is not known until `recordMandateAnswer`. */
export async function recordMandateSending(db: DbOrTx, mandateId: string, sentAt: Date): Promise<void> {
  const data = { sentAt, answeredAt: null, exchangeMandateId: null };
  await db.bseMandateRegistration.upsert({ where: { mandateId }, create: { mandateId, ...data }, update: data });
}

/** The exchange answered (a mandate id, or a refusal: null), or the mandate was found there after a lost answer. */
export async function recordMandateAnswer(db: DbOrTx, mandateId: string, exchangeMandateId: string | null, answeredAt: Date): Promise<void> {
  await db.bseMandateRegistration.updateMany({ where: { mandateId }, data: { answeredAt, exchangeMandateId } });
}

/** Which of these exchange mandate ids another of our mandates already holds (or was answered). */
export async function exchangeMandateIdsTaken(db: DbOrTx, exchangeMandateIds: string[], exceptMandateId: string): Promise<Set<string>> {
  const where = { exchangeMandateId: { in: exchangeMandateIds }, NOT: { id: exceptMandateId } };
  const [mandates, registrations] = await Promise.all([
    db.mandate.findMany({ where, select: { exchangeMandateId: true } }),
    db.bseMandateRegistration.findMany({ where: { exchangeMandateId: { in: exchangeMandateIds }, NOT: { mandateId: exceptMandateId } }, select: { exchangeMandateId: true } }),
  ]);
  return new Set([...mandates, ...registrations].map((row) => row.exchangeMandateId!));
}
