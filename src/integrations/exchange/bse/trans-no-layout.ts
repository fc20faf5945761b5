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

/**
 * The 10-character internal reference sent with a request (RefNo, InternalRefNo, IntRefNo): the TransNo's
 * `MMDD` and running number. The order status report returns a 10-character internal reference only, so
 * the 19-character TransNo itself would not come back whole; within the days a report covers, `MMDD` +
 * the day's running number names one TransNo.
 */
export function internalRefOf(transNo: string): string {
  return `${transNo.slice(4, 8)}${transNo.slice(-RUNNING_DIGITS)}`;
}
