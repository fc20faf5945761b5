import type { DataCipher } from "../../platform/lib/crypto.js";

/** A subscription's secrets as stored: the current one, and the one a rotation replaced with its expiry. */
export interface StoredSecrets {
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * The secrets a delivery is signed with at `now`: the current one, then the replaced one while its overlap
 * lasts (so X-MF-Signature carries two `v1` entries then, one after). An expired one is ignored here and
 * cleared by the next rotation or the sweep.
 */
export function signingSecrets(cipher: DataCipher, stored: StoredSecrets, now: Date = new Date()): string[] {
  const current = cipher.decrypt(stored.secretEncrypted);
  const overlapping = stored.previousSecretEncrypted !== null && stored.previousSecretExpiresAt !== null && stored.previousSecretExpiresAt > now;
  return overlapping ? [current, cipher.decrypt(stored.previousSecretEncrypted!)] : [current];
}
