import { expect } from "vitest";
import { todayInIndia } from "../../src/platform/lib/india-date.js";
import type { TestApp } from "./app.js";
import { investorBody } from "./factories.js";

/** An investor as the tests use it: its id, clear PAN, investment account and first bank account. */
export interface TestInvestor {
  id: string;
  pan: string;
  account: string;
  bankAccountId: string;
}

/** Two fresh distributors' tokens: the caller's and another one for tenancy checks. */
export async function twoDistributors(app: TestApp) {
  const { token } = await app.newDistributor();
  const { token: otherToken } = await app.newDistributor();
  return { token, otherToken };
}

/** A PENDING investor of the token's distributor, created through POST /api/investors/v1 (default investorBody()). */
export async function pendingInvestor(app: TestApp, token: string, body = investorBody()): Promise<TestInvestor> {
  const created = await app.http("POST", "/api/investors/v1", { token, json: body });
  expect(created.status).toBe(201);
  return {
    id: created.body.id,
    pan: body.primary_holder.pan,
    account: created.body.investment_account_id,
    bankAccountId: created.body.bank_accounts[0].id,
  };
}

/** A REGISTERED investor: a PENDING one, registered through the exchange's simulation. */
export async function registeredInvestor(app: TestApp, token: string, body = investorBody()): Promise<TestInvestor> {
  const investor = await pendingInvestor(app, token, body);
  expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/register`, { token })).status).toBe(200);
  return investor;
}

/** A POST /api/mandates/v1 body: ENACH on the investor's first bank account, limit 25,000.50, from today. */
/**
 * A new distributor's investor the exchange already knows (BSE tests): REGISTERED in the database, as the
 * adapter's registration (UCC, FATCA) would leave it, without sending it; with its client code.
 */
export async function investorKnownToExchange(app: TestApp): Promise<{ token: string; account: string; uccCode: string }> {
  const { token } = await app.newDistributor();
  const investor = await pendingInvestor(app, token);
  await app.prisma.investor.update({ where: { id: investor.id }, data: { status: "REGISTERED" } });
  const { uccCode } = await app.prisma.investor.findUniqueOrThrow({ where: { id: investor.id } });
  return { token, account: investor.account, uccCode };
}

export function mandateBody(investor: { id: string; bankAccountId: string }, overrides: Record<string, unknown> = {}) {
  return { investor_id: investor.id, bank_account_id: investor.bankAccountId, mandate_type: "ENACH", amount_limit: 25000.5, start_date: todayInIndia(), ...overrides };
}

/** A REGISTERED ENACH mandate (limit 50,000, from today) on the investor's first bank account; its id. */
export async function registeredMandate(app: TestApp, token: string, investor: TestInvestor): Promise<string> {
  const created = await app.http("POST", "/api/mandates/v1", {
    token,
    json: mandateBody(investor, { amount_limit: 50000 }),
  });
  expect(created.status).toBe(201);
  expect((await app.http("GET", `/api/simulation/mandates/v1/${created.body.id}/register`, { token })).status).toBe(200);
  return created.body.id;
}
