/**
 * Prints the SQL our stack sends to PostgreSQL for one request of each benchmarked path, so the raw
 * baselines (bench/harness/baselines.ts) can run the same statements with the same transaction
 * boundaries. pg's Client.query is wrapped (Prisma's adapter runs every statement through it), the
 * request is answered once to warm caches, then once more while recording.
 *   npx tsx bench/harness/capture-sql.ts        (DATABASE_URL uses a server instead of an embedded one)
 */
import pg from "pg";
import { investorBody } from "../../test/helpers/factories.js";
import { openStack } from "./stack.js";
import { lumpSumFixture } from "./placement-fixture.js";

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
    recording = true;
    const response = await send();
    recording = false;
    console.log(`\n${method} ${path} -> ${response.status}`);
    for (const text of recorded.splice(0)) console.log(`  ${text}`);
  }
} finally {
  await stack.close();
}
