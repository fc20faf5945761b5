/**
 * Prints the SQL our stack sends to PostgreSQL for one request of each benchmarked path, so the raw
 * baselines (bench/harness/baselines.ts) can run the same statements with the same transaction
 * boundaries. pg's Client.query is wrapped (Prisma's adapter runs every statement through it), the
 * request is answered once to warm caches, then once more while recording.
 *   npx tsx bench/harness/capture-sql.ts        (DATABASE_URL uses a server instead of an embedded one)
 */
import pg from "pg";
import { CreateInvestorRequest } from "../../src/domains/investors/investors.schemas.js";
import { createInvestor } from "../../src/domains/investors/investors.service.js";
import { applyRegistration } from "../../src/domains/investors/lifecycle.js";
import { investorBody } from "../../test/helpers/factories.js";
import { openStack } from "./stack.js";

const recorded: string[] = [];
let recording = false;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (recording) {
    const config = args[0] as string | { text?: string };
    const text = typeof config === "string" ? config : config?.text;
    if (text) recorded.push(text.replace(/\s+/g, " ").trim());
  }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

const stack = await openStack({ name: "capture" });
try {
  const { services, token, distributorId } = stack;
  await services.prisma.scheme.create({
    data: { schemeCode: "BENCH01", isinGrowth: "INT00BENCH01", name: "Bench Scheme", amcCode: "BENCH", amcName: "Bench Mutual Fund", category: "Equity Scheme", schemeType: "Open Ended Schemes", minPurchaseAmount: "1000.00", purchaseMultiple: "1.00" },
  });
  // Its exchange code (the exchange's scheme master would give it): placement names and checks it.
  await services.prisma.exchangeScheme.create({
    data: {
      code: "BSEBENCH01", isin: "INT00BENCH01", name: "Bench Scheme", transactionMode: "BOTH", purchaseAllowed: true, redemptionAllowed: true,
      sipAllowed: true, stpAllowed: true, swpAllowed: true, switchAllowed: true, minPurchaseAmount: "1000.00", purchaseMultiple: "1.00",
    },
  });
  const { body: investor } = await createInvestor(services, { distributorId, clientId: "bench" }, CreateInvestorRequest.parse(investorBody()), undefined);
  await applyRegistration(services.prisma, investor.id, { status: "REGISTERED", remark: "BENCH" });

  const requests: Array<[string, string, string, unknown | (() => unknown)]> = [
    ["uncached", "GET", "/api/masters/v1/investor-options", undefined],
    ["app", "POST", "/api/orders/v1/", { investment_account_id: investor.investment_account_id, order_type: "LUMPSUM_PURCHASE", scheme_code: "BENCH01", amount: 5000, purchase_type: "FRESH" }],
    ["app", "POST", "/api/holdings/v1/lookup", { pan: "ABCPE1234F" }],
    // A fresh PAN for each of the two sends (warm, then recorded), as bench/investor-create.ts sends.
    ["app", "POST", "/api/investors/v1", () => investorBody()],
  ];
  for (const [which, method, path, body] of requests) {
    const app = which === "uncached" ? stack.uncachedApp : stack.app;
    const send = () => app.request(path, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(typeof body === "function" ? body() : body) });
    await (await send()).text();
    recording = true;
    const response = await send();
    recording = false;
    console.log(`\n${method} ${path} -> ${response.status}`);
    for (const text of recorded.splice(0)) console.log(`  ${text}`);
  }
} finally {
  await stack.close();
}
