import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ErrorEnvelope } from "../../src/platform/lib/zod.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { useTestApp, type TestResponse } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { bodyText, fittingValue, hostileString, mutated, openApiOperations, pathParam, queryText, toJsonText, type Operation } from "../helpers/hostile.js";
import { runTask } from "../helpers/jobs.js";
import { createOpenScheme, orderingInvestor, today } from "../helpers/orders.js";

/**
 * Every operation of the committed openapi.json, driven with generated values: mostly of the
 * right shape with hostile parts (wrong types, NUL characters, huge strings, prototype-named
 * keys, deep nesting, repeated and unknown query keys, hostile path ids), with and without a
 * valid token. No answer may be a 5xx; every other answer carries the error envelope and its
 * X-Request-Id, and no internal text.
 */

// The request budget is set out of reach, so every generated request reaches the code it aims at.
const app = useTestApp({ MF_RATE_LIMIT_RPS: "1000000", MF_RATE_LIMIT_BURST: "1000000" });
/** Fixed, so a run is repeatable; FUZZ_SEED and FUZZ_RUNS explore further by hand. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_611);
const RUNS_WITH_TOKEN = Number(process.env.FUZZ_RUNS ?? 60);
const RUNS_WITHOUT_TOKEN = Math.ceil(RUNS_WITH_TOKEN / 4);
/** Longer request lines are answered 431 before the app (tested in hostile-input.test.ts); generated URLs stay below. */
const MAX_URL = 12_000;
const INTERNAL_TEXT = /prisma|invocation|\/work\/|node_modules|\.[cm]?[jt]s:\d+|\n\s+at /i;

const operations = openApiOperations();
const fixture = { token: "", ids: [] as string[], examples: {} as Record<string, fc.Arbitrary<unknown>> };

beforeAll(async () => {
  const { token, investorId, account, mandateId } = await orderingInvestor(app, { mandate: true });
  const client = await app.newDistributor();
  await createOpenScheme(app, "FUZZ1");
  await createOpenScheme(app, "FUZZ2");
  const place = async (extra: Record<string, unknown> = {}) => {
    const res = await app.http("POST", "/api/orders/v1/", {
      token,
      json: { investment_account_id: account, order_type: "LUMPSUM_PURCHASE", purchase_type: "FRESH", scheme_code: "FUZZ1", amount: 1000, ...extra },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  // Orders in several states, so the simulation and cancel routes have real targets.
  const pending = await place();
  const accepted = [await place(), await place(), await place({ mandate_id: mandateId })];
  for (const id of accepted) await runTask(app, dispatchOrder, { order_id: id });
  const paymentId = (await app.http("GET", `/api/orders/v1/${accepted[2]}`, { token })).body.payment_id as string;
  expect(paymentId).toMatch(/^pay_/);
  const investor = await app.http("GET", `/api/investors/v1/${investorId}`, { token });
  const bankAccountId = investor.body.bank_accounts[0].id as string;
  // Webhook targets resolve to a public address without asking a DNS server (no worker runs here,
  // so nothing is ever delivered).
  app.services.resolveHost = async () => ["93.184.216.34"];
  fixture.token = token;
  fixture.ids = [investorId, account, mandateId, pending, ...accepted, paymentId, bankAccountId, "FUZZ1", "FUZZ2", "IN", "MH", today()];
  const pan = fc.stringMatching(/^[A-Z]{3}P[A-Z][1-9]\d{3}[A-Z]$/);
  const amount = fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.double({ min: 0.01, max: 1e9, noNaN: true }));
  // Valid requests of the creating operations, which the generators then damage in one place.
  fixture.examples = {
    "auth-token": fc.constant({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret }),
    "holdings-lookup": pan.map((p) => ({ pan: p })),
    "investors-create": pan.map((p) => {
      const body = investorBody();
      return { ...body, primary_holder: { ...body.primary_holder, pan: p } };
    }),
    "mandates-create": amount.map((limit) => ({ investor_id: investorId, bank_account_id: bankAccountId, mandate_type: "ENACH", amount_limit: limit, start_date: today() })),
    "orders-place": fc.tuple(amount, fc.constantFrom("LUMPSUM_PURCHASE", "REDEMPTION", "SIP", "XSIP", "SWITCH")).map(([value, type]) => ({
      investment_account_id: account,
      order_type: type,
      scheme_code: "FUZZ1",
      ...(type === "LUMPSUM_PURCHASE" ? { purchase_type: "FRESH" } : {}),
      ...(type === "REDEMPTION" || type === "SWITCH" ? { units: value, folio_no: "F1" } : { amount: value }),
      ...(type === "SWITCH" ? { switch: { to_scheme_code: "FUZZ2" } } : {}),
      ...(type === "SIP" || type === "XSIP" ? { sip: { frequency: "MONTHLY", start_date: today(), installments: 12, installment_day: 5 } } : {}),
      ...(type === "XSIP" ? { mandate_id: mandateId } : {}),
      euin: { declaration: true },
    })),
    "webhooks-subscribe": fc.constantFrom("https://hooks.example.com/mf", "https://[::1]/x", "http://hooks.example.com/", "https://user:pw@hooks.example.com:8443/a?b=c").map((url) => ({ url, events: ["order.*"] })),
  };
});

interface FuzzRequest {
  path: string;
  body: string | undefined;
  headers: Record<string, string>;
}

function requestFor(op: Operation): fc.Arbitrary<FuzzRequest> {
  const takesBody = op.method === "POST" || op.method === "PUT" || op.method === "PATCH";
  const params = fc.tuple(...op.pathParams.map(() => pathParam(fixture.ids)));
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant("application/json") },
    { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1", "") },
  );
  const idempotencyKey = fc.option(fc.oneof(fc.constantFrom("key-1", "é", " ", "k".repeat(300)), fc.string({ maxLength: 20 }).filter((s) => /^[\x20-\x7e]*$/.test(s))), { freq: 3 });
  return fc
    .tuple(params, queryText(op.queryParams, fixture.ids), takesBody ? bodyText(op.body, fixture.ids, fixture.examples[op.operationId]) : fc.constant(undefined), contentType, idempotencyKey)
    .map(([values, query, body, type, key]) => {
      let index = 0;
      const path = op.path.replace(/\{\w+\}/g, () => values[index++]!) + query;
      const headers: Record<string, string> = {};
      if (body !== undefined && type) headers["content-type"] = type;
      if (key !== null) headers["idempotency-key"] = key;
      return { path, body, headers };
    });
}

function expectSafeAnswer(res: TestResponse, what: string, options: { oauth?: boolean } = {}) {
  expect(res.status, what).toBeLessThan(500);
  const requestId = res.headers.get("x-request-id");
  expect(requestId, what).toBeTruthy();
  expect(res.text, what).not.toMatch(INTERNAL_TEXT);
  if (res.status < 300) return;
  // The token endpoint answers bad credentials the OAuth 2.0 way.
  if (options.oauth && res.status === 401 && res.body?.error === "invalid_client") return;
  expect(ErrorEnvelope.safeParse(res.body).success, `${what}: ${res.text.slice(0, 300)}`).toBe(true);
  expect(res.body.request_id, what).toBe(requestId);
}

async function drive(op: Operation, withToken: boolean, seed: number) {
  await fc.assert(
    fc.asyncProperty(requestFor(op), async (request) => {
      fc.pre(request.path.length < MAX_URL);
      const res = await app.http(op.method, request.path, {
        token: withToken ? fixture.token : undefined,
        body: request.body,
        headers: request.headers,
      });
      expectSafeAnswer(res, `${op.method} ${request.path.slice(0, 200)} ${request.body?.slice(0, 200) ?? ""}`, { oauth: op.operationId === "auth-token" });
    }),
    { seed, numRuns: withToken ? RUNS_WITH_TOKEN : RUNS_WITHOUT_TOKEN, endOnFailure: true },
  );
}

describe("every REST operation under hostile input", () => {
  it("covers the whole document", () => {
    expect(operations.length).toBeGreaterThanOrEqual(38);
  });

  it.each(operations.map((op, index) => [`${op.method} ${op.path}`, op, index] as const))("%s", async (_name, op, index) => {
    await drive(op, true, SEED + index);
    await drive(op, false, SEED + index);
  });
});

/** Procedures reached over /trpc: queries and mutations, as a first-party client calls them. */
const TRPC_PROCEDURES = ["auth-token", "investors-create", "orders-place", "mandates-create", "masters-schemes", "orders-get", "orders-list", "investors-get"];

describe("/trpc under hostile input", () => {
  it.each(TRPC_PROCEDURES.map((id, index) => [id, index] as const))("%s", async (operationId, index) => {
    const op = operations.find((o) => o.operationId === operationId)!;
    const isQuery = op.method === "GET";
    const properties = { ...(op.body?.properties ?? {}) };
    for (const name of op.pathParams) properties[name] = { type: "string" };
    for (const param of op.queryParams) properties[param.name] = param.schema;
    // A query's input travels in the URL, which must stay under Node's 16 KB limit.
    const huge = isQuery ? 3_000 : 100_000;
    const gen = { ids: fixture.ids, huge };
    const fitting = fittingValue({ type: "object", properties, required: op.body?.required ?? op.pathParams }, gen);
    const example = fixture.examples[operationId];
    const input = fc.oneof(
      { weight: 5, arbitrary: mutated(example ? fc.oneof(example, fitting) : fitting, gen) },
      { weight: 1, arbitrary: hostileString(huge) },
    );
    const procedure = operationId.replace("-", ".");
    await fc.assert(
      fc.asyncProperty(input, fc.boolean(), async (value, withToken) => {
        const json = toJsonText(value, isQuery ? 1_000 : 10_000);
        if (isQuery) fc.pre(encodeURIComponent(json).length < MAX_URL);
        const token = withToken ? fixture.token : undefined;
        const res = isQuery
          ? await app.http("GET", `/trpc/${procedure}?input=${encodeURIComponent(json)}`, { token })
          : await app.http("POST", `/trpc/${procedure}`, { token, body: json, headers: { "content-type": "application/json" } });
        const what = `${procedure} ${json.slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        expect(res.headers.get("x-request-id"), what).toBeTruthy();
        expect(res.text, what).not.toMatch(INTERNAL_TEXT);
        expect(res.text, what).not.toMatch(/stack/i);
        // A rate limit in front of /trpc may answer with the REST envelope.
        if (res.status === 429 && ErrorEnvelope.safeParse(res.body).success) return;
        if (res.status >= 300) {
          expect(res.body.error.data, `${what}: ${res.text.slice(0, 300)}`).toMatchObject({
            appCode: expect.any(String),
            httpStatus: res.status,
            request_id: res.headers.get("x-request-id"),
          });
        }
      }),
      { seed: SEED + 100 + index, numRuns: RUNS_WITH_TOKEN, endOnFailure: true },
    );
  });
});
