import { expect } from "vitest";
import type { TestApp } from "./app.js";
import { registeredInvestor } from "./investors.js";
import { acceptedOrder } from "./orders.js";

/** A distributor of its own with one REGISTERED investor: the holdings tests' tenant (two of them share folio numbers). */
export interface Tenant {
  token: string;
  account: string;
  pan: string;
  investorId: string;
}

export async function newTenant(app: TestApp): Promise<Tenant> {
  const { token } = await app.newDistributor();
  const investor = await registeredInvestor(app, token);
  return { token, account: investor.account, pan: investor.pan, investorId: investor.id };
}

/** Allots an order through the exchange simulation (`query`: nav, folio_no, allotment_date); 200 asserted. */
export async function allotOrder(app: TestApp, token: string, orderId: string, query: string): Promise<void> {
  const res = await app.http("GET", `/api/simulation/orders/v1/${orderId}/allot?${query}`, { token });
  expect(res.status).toBe(200);
}

/** Places and dispatches an order on the tenant's account (acceptedOrder), then allots it; its id. */
export async function allottedOrder(app: TestApp, t: Tenant, order: Record<string, unknown>, allotQuery: string): Promise<string> {
  const id = await acceptedOrder(app, t, order);
  await allotOrder(app, t.token, id, allotQuery);
  return id;
}
