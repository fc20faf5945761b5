import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { registeredInvestor } from "../helpers/investors.js";

// pg 8.19+ warns (and pg 9 will fail) when a client is asked a query while one is running, which Prisma's interpreter
// does inside an interactive transaction for a read with several relations (prisma/orm#29979): the servicing paths
// read an investor with its accounts in transactions, so they must not include several relations at once.
const app = useTestApp();
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

beforeAll(() => {
  process.on("warning", onWarning);
});
afterAll(() => {
  process.off("warning", onWarning);
});

describe("no query is sent on a busy connection", () => {
  it("creating, changing and opting out an investor, and placing its order, warn nothing", async () => {
    const { token } = await app.newDistributor();
    const investor = await registeredInvestor(app, token, investorBody({ nominees: [] }));
    const patched = await app.http("PATCH", `/api/investors/v1/${investor.id}`, {
      token, headers: { "Idempotency-Key": "cq-1" }, json: { occupation: "BUSINESS" },
    });
    expect(patched.status).toBe(200);
    expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/apply-change`, { token })).status).toBe(200);
    expect((await app.http("POST", `/api/investors/v1/${investor.id}/nomination-opt-out`, { token, headers: { "Idempotency-Key": "cq-2" } })).status).toBe(201);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.includes("already executing a query"))).toEqual([]);
  });
});
