import type { Services } from "../shared/services.js";
import { investorsWithoutNomination, markNominated } from "./consents.repo.js";
import { decryptDetails } from "./investors.service.js";

const PAGE = 500;

/**
 * Investors created before nomination_status existed start at NONE (their nominees are in the encrypted
 * details, which the migration cannot read): this reads them and marks those with nominees NOMINATED.
 * Safe to run again; run once after the migration (`npm run mf -- investors:backfill-nomination`).
 */
export async function backfillNominationStatus(services: Services): Promise<{ checked: number; nominated: number }> {
  let afterId = "";
  let checked = 0;
  let nominated = 0;
  for (;;) {
    const page = await investorsWithoutNomination(services.prisma, afterId, PAGE);
    if (page.length === 0) return { checked, nominated };
    checked += page.length;
    const withNominees = page.filter((row) => decryptDetails(services.cipher, row).nominees.length > 0).map((row) => row.id);
    if (withNominees.length > 0) nominated += await markNominated(services.prisma, withNominees);
    afterId = page[page.length - 1]!.id;
  }
}
