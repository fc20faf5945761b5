/**
 * The layout of the exchange's unique reference (TransNo, varchar 19): `YYYYMMDD` + member id + a 6-digit
 * running number. Pure, so the configuration can check a member id at start-up.
 */

export const TRANS_NO_LENGTH = 19;
export const RUNNING_DIGITS = 6;
export const MAX_MEMBER_ID_LENGTH = TRANS_NO_LENGTH - 8 - RUNNING_DIGITS;

/** Why a member id cannot make TransNos (open point 7 of the document), or null. */
export function memberIdProblem(memberId: string): string | null {
  if (memberId.length <= MAX_MEMBER_ID_LENGTH) return null;
  return `BSE_MEMBER_ID is ${memberId.length} characters, but the exchange's unique reference (TransNo, ${TRANS_NO_LENGTH} characters: ` +
    `YYYYMMDD + member id + a ${RUNNING_DIGITS}-digit running number) leaves room for at most ${MAX_MEMBER_ID_LENGTH}; confirm the layout with the exchange`;
}
