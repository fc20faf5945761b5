import { beforeAll, describe, expect, it } from "vitest";
import { deriveNomination } from "../../src/domains/investors/jobs/derive-nomination.js";
import { backfillNominationStatus } from "../../src/domains/investors/nomination-backfill.js";
import { CRON_ITEMS } from "../../src/tasks.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { registeredInvestor } from "../helpers/investors.js";
import { runTask } from "../helpers/jobs.js";
import { createOpenScheme, lumpsumOrder } from "../helpers/orders.js";

// Investors created before nomination_status have NULL there until the worker derives it from their details.
const app = useTestApp();
let token = "";

beforeAll(async () => {
  await createOpenScheme(app, "970101");
  ({ token } = await app.newDistributor());
});

const statusOf = async (id: string) => (await app.prisma.investor.findUniqueOrThrow({ where: { id }, select: { nominationStatus: true } })).nominationStatus;
const asBeforeTheColumn = (id: string) => app.prisma.investor.update({ where: { id }, data: { nominationStatus: null } });
const view = async (id: string) => (await app.http("GET", `/api/investors/v1/${id}`, { token })).body.nomination.status;
const placeFresh = (account: string) => app.http("POST", "/api/orders/v1/", { token, json: { investment_account_id: account, ...lumpsumOrder("970101", { amount: 1000 }) } });

describe("nomination_status of investors from before it", () => {
  it("reads from the details meanwhile: the view derives it, placement refuses no one on a guess", async () => {
    const withNominees = await registeredInvestor(app, token);
    const without = await registeredInvestor(app, token, investorBody({ nominees: [] }));
    await asBeforeTheColumn(withNominees.id);
    await asBeforeTheColumn(without.id);
    expect(await view(withNominees.id)).toBe("NOMINATED");
    expect(await view(without.id)).toBe("NONE");
    expect((await placeFresh(without.account)).status).toBe(201);
    // The opt-out link judges by the details too: nominees refuse it.
    const optOut = await app.http("POST", `/api/investors/v1/${withNominees.id}/nomination-opt-out`, { token });
    expect(optOut.status).toBe(409);
    expect(optOut.body.error.message).toContain("has nominees");
  });

  it("the worker's task marks each NOMINATED or NONE, pages of any size, then finds nothing; placement then applies the rule", async () => {
    const withNominees = await registeredInvestor(app, token);
    const without = await registeredInvestor(app, token, investorBody({ nominees: [] }));
    await asBeforeTheColumn(withNominees.id);
    await asBeforeTheColumn(without.id);
    await runTask(app, deriveNomination, {});
    expect(await statusOf(withNominees.id)).toBe("NOMINATED");
    expect(await statusOf(without.id)).toBe("NONE");
    expect(await app.prisma.investor.count({ where: { nominationStatus: null } })).toBe(0);
    expect(await backfillNominationStatus(app.services)).toEqual({ checked: 0, nominated: 0 });
    const refused = await placeFresh(without.account);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: { reason: string }) => d.reason)).toEqual(["nomination_required"]);
    expect((await placeFresh(withNominees.account)).status).toBe(201);
  });

  it("runs every 10 minutes on the worker's crontab", () => {
    expect(CRON_ITEMS).toContainEqual({ task: "investors__derive_nomination", match: "*/10 * * * *", identifier: "investors__derive_nomination" });
  });
});
