/**
 * Prints the SQL our stack sends to PostgreSQL for one request of each benchmarked path, so the raw
 * baselines (bench/harness/baselines.ts) can run the same statements with the same transaction
 * boundaries. pg's Client.query is wrapped (Prisma's adapter runs every statement through it), the
 * request is answered once to warm caches, then once more while recording (record, bench/scale/explain.ts).
 *   npx tsx bench/harness/capture-sql.ts        (DATABASE_URL uses a server instead of an embedded one)
 */
import { investorBody } from "../../test/helpers/factories.js";
import { record } from "../scale/explain.js";
import { openStack } from "./stack.js";
import { lumpSumFixture } from "./placement-fixture.js";

const stack = await openStack({ name: "capture" });
try {
  const { token } = stack;
  const { body: placement } = await lumpSumFixture(stack);

  const requests: Array<[string, string, string, unknown | (() => unknown)]> = [
    ["uncached", "GET", "/api/masters/v1/investor-options", undefined],
    ["app", "POST", "/api/orders/v1/", placement],
    ["app", "POST", "/api/holdings/v1/lookup", { pan: "ABCPE1234F" }],
    // A fresh PAN for each of the two sends (warm, then recorded), as bench/investor-create.ts sends.
    ["app", "POST", "/api/investors/v1", () => investorBody()],
  ];
  for (const [which, method, path, body] of requests) {
    const app = which === "uncached" ? stack.uncachedApp : stack.app;
    const send = () => app.request(path, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(typeof body === "function" ? body() : body) });
    await (await send()).text();
    let status = 0;
    const recorded = await record(async () => void (status = (await send()).status));
    console.log(`\n${method} ${path} -> ${status}`);
    for (const { text } of recorded) console.log(`  ${text}`);
  }
} finally {
  await stack.close();
}
