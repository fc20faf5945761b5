import { expect } from "vitest";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import type { TestApp } from "./app.js";
import { registeredInvestor, registeredMandate, type TestInvestor } from "./investors.js";
import { runTask } from "./jobs.js";
import { createOpenScheme, lumpsumOrder } from "./orders.js";

export const LINK_SCHEME = "930001";

/** A distributor (named, with its ARN) and its REGISTERED investor, a second distributor, the open scheme LINK_SCHEME. */
export async function linkingDistributor(app: TestApp, options: { mandate?: boolean; name?: string } = {}) {
  if (!(await app.prisma.scheme.findUnique({ where: { schemeCode: LINK_SCHEME } }))) await createOpenScheme(app, LINK_SCHEME, "Test Flexi Cap Fund - Growth");
  const distributor = await app.newDistributor({ name: options.name ?? "Mehta Advisors" });
  const { token: otherToken } = await app.newDistributor();
  const investor: TestInvestor = await registeredInvestor(app, distributor.token);
  const mandateId = options.mandate ? await registeredMandate(app, distributor.token, investor) : "";
  return { token: distributor.token, arn: distributor.arn, otherToken, investor, mandateId };
}

/** A lump-sum proposal of 2500.50 into LINK_SCHEME for the investor's account. */
export const lumpsumProposal = (investor: TestInvestor, overrides: Record<string, unknown> = {}) => ({
  investment_account_id: investor.account, ...lumpsumOrder(LINK_SCHEME, { amount: 2500.5, ...overrides }),
});

export const createLink = (app: TestApp, token: string, json: unknown, headers: Record<string, string> = {}) =>
  app.http("POST", "/api/order-links/v1", { token, json, headers });

export const publicPath = (linkId: string, action = "") => `/api/public/v1/order-links/${linkId}${action ? `/${action}` : ""}`;

/** A link created (201), confirmed (201) and its order dispatched: the sandbox exchange ACCEPTS it. */
export async function acceptedLink(app: TestApp, token: string, proposal: unknown): Promise<{ linkId: string; orderId: string }> {
  const link = await createLink(app, token, proposal);
  expect(link.status).toBe(201);
  const confirmed = await app.http("POST", publicPath(link.body.id, "confirm"));
  expect(confirmed.status).toBe(201);
  await runTask(app, dispatchOrder, { order_id: confirmed.body.id });
  return { linkId: link.body.id, orderId: confirmed.body.id };
}
