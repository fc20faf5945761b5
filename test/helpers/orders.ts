import { todayInIndia } from "../../src/lib/india-date.js";
import type { TestApp } from "./app.js";
import { registeredInvestor, registeredMandate } from "./investors.js";

/** Today in India, the service's "today". */
export const today = () => todayInIndia();
/** The date in India `days` from now. */
export const dayPlus = (days: number) => todayInIndia(new Date(Date.now() + days * 86_400_000));

/** A scheme open for purchases, SIPs and redemptions, without minimums. */
export async function createOpenScheme(app: TestApp, schemeCode: string, name = `Test Scheme ${schemeCode}`) {
  await app.prisma.scheme.create({
    data: { schemeCode, name, amcCode: "TEST_AMC", amcName: "Test Mutual Fund", category: "Equity Scheme", schemeType: "Open Ended Schemes" },
  });
}

/**
 * A distributor with a REGISTERED investor (and, with `mandate`, a REGISTERED mandate of limit
 * 50,000), plus a second distributor for tenancy checks.
 */
export async function orderingInvestor(app: TestApp, options: { mandate?: boolean } = {}) {
  const { token } = await app.newDistributor();
  const { token: otherToken } = await app.newDistributor();
  const investor = await registeredInvestor(app, token);
  const mandateId = options.mandate ? await registeredMandate(app, token, investor) : "";
  return { token, otherToken, investorId: investor.id, account: investor.account, mandateId };
}

export const eventNames = async (app: TestApp, resourceId: string) =>
  (await app.prisma.event.findMany({ where: { resourceId }, orderBy: { id: "asc" }, select: { event: true } })).map((e) => e.event);
