import { describe, expect, it } from "vitest";
import { backfillNominationStatus } from "../../src/domains/investors/nomination-backfill.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { pendingInvestor } from "../helpers/investors.js";

const app = useTestApp();

const statusOf = async (id: string) => (await app.prisma.investor.findUniqueOrThrow({ where: { id }, select: { nominationStatus: true } })).nominationStatus;

describe("backfillNominationStatus (npm run mf -- investors:backfill-nomination)", () => {
  it("marks investors left at NONE by the migration NOMINATED where their details name nominees; nothing else; again: nothing", async () => {
    const { token } = await app.newDistributor();
    const withNominees = await pendingInvestor(app, token);
    const without = await pendingInvestor(app, token, investorBody({ nominees: [] }));
    expect(await statusOf(withNominees.id)).toBe("NOMINATED");
    // As a row created before the migration reads.
    await app.prisma.investor.update({ where: { id: withNominees.id }, data: { nominationStatus: "NONE" } });
    const first = await backfillNominationStatus(app.services);
    expect(first.nominated).toBeGreaterThanOrEqual(1);
    expect(await statusOf(withNominees.id)).toBe("NOMINATED");
    expect(await statusOf(without.id)).toBe("NONE");
    expect((await backfillNominationStatus(app.services)).nominated).toBe(0);
  });
});
