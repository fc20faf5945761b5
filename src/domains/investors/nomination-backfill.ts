import type { Services } from "../shared/services.js";
import { investorsWithoutNomination, markNomination } from "./consents.repo.js";
import { decryptDetails } from "./investors.service.js";

const PAGE = 500;

/**
 * Investors created before nomination_status existed have NULL there (their nominees are in the encrypted details,
 * which the migration cannot read): this reads them and marks each NOMINATED or NONE. The worker runs it every 10
 * minutes (investors__derive_nomination; a partial index makes it free once nothing is left), and `npm run mf --
 * investors:backfill-nomination` at once. Each page is its own update, so it can stop anywhere and run again.
 */
export async function backfillNominationStatus(services: Services): Promise<{ checked: number; nominated: number }> {
  let checked = 0;
  let nominated = 0;
  for (;;) {
    const page = await investorsWithoutNomination(services.prisma, PAGE);
    if (page.length === 0) return { checked, nominated };
    checked += page.length;
    const withNominees = new Set(page.filter((row) => decryptDetails(services.cipher, row).nominees.length > 0).map((row) => row.id));
    nominated += await markNomination(services.prisma, [...withNominees], "NOMINATED");
    await markNomination(services.prisma, page.map((row) => row.id).filter((id) => !withNominees.has(id)), "NONE");
  }
}
