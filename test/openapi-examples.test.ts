import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { dispatchOrder } from "../src/domains/orders/jobs/dispatch.js";
import { openApiText } from "../src/openapi.js";
import { EXAMPLE_PLACEHOLDERS } from "../src/domains/shared/docs.js";
import { seedSandbox } from "../src/seed/sandbox.js";
import { useTestApp } from "./helpers/app.js";
import { pendingInvestor } from "./helpers/investors.js";
import { runTask } from "./helpers/jobs.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- OpenAPI documents are walked as JSON

/**
 * The request body examples of openapi.json "would succeed": on a fresh sandbox (seeded as `npm start`
 * seeds it), each one, with its placeholders replaced by the demo investor's ids and the printed
 * credentials, answers its documented success status.
 */
const app = useTestApp({ MF_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "openapi-examples-")) });
const document: Json = JSON.parse(openApiText());
let token = "";
let replacements: Record<string, string> = {};

function operation(operationId: string): { method: string; path: string; op: Json } {
  for (const [route, item] of Object.entries(document.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) if (op.operationId === operationId) return { method: method.toUpperCase(), path: route, op };
  }
  throw new Error(`no operation ${operationId}`);
}

/** The example with every placeholder id replaced by the sandbox's real one. */
function example(op: Json, type = "application/json"): Json {
  let text = JSON.stringify(op.requestBody.content[type].example);
  for (const [placeholder, real] of Object.entries(replacements)) text = text.replaceAll(placeholder, real);
  return JSON.parse(text);
}

/** The status a first call answers: 201 for a creation, else 200. */
const documentedStatus = (op: Json) => (op.responses["201"] ? 201 : 200);

async function postExample(operationId: string, pathParams: Record<string, string> = {}) {
  const { method, path: route, op } = operation(operationId);
  const target = route.replace(/\{(\w+)\}/g, (_, name: string) => pathParams[name]!);
  const response = await app.http(method, target, { token, json: example(op) });
  expect(response.status, `${operationId}: ${response.text}`).toBe(documentedStatus(op));
  return response;
}

beforeAll(async () => {
  const credentials = await seedSandbox(app.services);
  // The subscription example names a public host; DNS is outside the test's control.
  app.services.resolveHost = async () => ["93.184.215.14"];
  const issued = await app.http("POST", "/api/auth/v1/token", {
    json: { grant_type: "client_credentials", client_id: credentials.client_id, client_secret: credentials.client_secret },
  });
  token = issued.body.access_token;
  const investors = await app.http("GET", "/api/investors/v1?status=REGISTERED", { token });
  const meera = await app.http("GET", `/api/investors/v1/${investors.body.data[0].id}`, { token });
  const mandates = await app.prisma.mandate.findMany({ where: { investorId: meera.body.id, status: "REGISTERED" } });
  expect(mandates).toHaveLength(1);
  replacements = {
    [EXAMPLE_PLACEHOLDERS.investorId]: meera.body.id,
    [EXAMPLE_PLACEHOLDERS.investmentAccountId]: meera.body.investment_accounts[0].id,
    [EXAMPLE_PLACEHOLDERS.bankAccountId]: meera.body.bank_accounts[0].id,
    [EXAMPLE_PLACEHOLDERS.mandateId]: mandates[0]!.id,
    [EXAMPLE_PLACEHOLDERS.clientId]: credentials.client_id,
    [EXAMPLE_PLACEHOLDERS.clientSecret]: credentials.client_secret,
  };
});

describe("openapi.json examples on a fresh sandbox", () => {
  it("the token examples (JSON and form) issue a token", async () => {
    const { op } = operation("auth-token");
    const json = await app.http("POST", "/api/auth/v1/token", { json: example(op) });
    expect(json.status, json.text).toBe(200);
    const form = new URLSearchParams(example(op, "application/x-www-form-urlencoded")).toString();
    const formed = await app.http("POST", "/api/auth/v1/token", { body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(formed.status, formed.text).toBe(200);
  });

  it("every creation example answers 201 and creates what it says", async () => {
    expect((await postExample("investors-create")).body).toMatchObject({ status: "PENDING", client_ref: "example-investor-1" });
    expect((await postExample("mandates-create")).body).toMatchObject({ status: "PENDING", start_date: "2099-01-05" });
    expect((await postExample("orders-place")).body).toMatchObject({ status: "PENDING", client_ref: "example-order-1" });
    expect((await postExample("brokerChanges-create")).body).toMatchObject({ status: "SUBMITTED" });
    expect((await postExample("webhooks-subscribe")).body.data).toMatchObject({ url: "https://hooks.example.com/mf-events" });
    const link = await postExample("orderLinks-create");
    expect(link.body).toMatchObject({ status: "ACTIVE", client_ref: "example-link-1" });

    // Paying needs the link confirmed by the investor and its order accepted by the exchange.
    const confirmed = await app.http("POST", `/api/public/v1/order-links/${link.body.id}/confirm`);
    expect(confirmed.status, confirmed.text).toBe(201);
    await runTask(app, dispatchOrder, { order_id: confirmed.body.id });
    const payment = await postExample("publicLinks-pay", { link_id: link.body.id });
    expect(payment.body).toMatchObject({ status: "PENDING" });
  });

  it("the other body examples answer 200", async () => {
    expect((await postExample("holdings-lookup")).status).toBe(200);
    expect((await postExample("holdings-transactions")).status).toBe(200);
    expect((await postExample("investors-sync")).status).toBe(200);
    const changed = await postExample("investors-update", { id: replacements[EXAMPLE_PLACEHOLDERS.investorId]! });
    expect(changed.body.pending_change).toMatchObject({ status: "PENDING", fields: ["contact"] });
    const fresh = await pendingInvestor(app, token);
    const added = await postExample("investors-addBankAccount", { id: fresh.id });
    expect(added.body.bank_accounts).toEqual([expect.objectContaining({ is_primary: true }), expect.objectContaining({ account_number: "XXXXXXXX7891", is_primary: false })]);
    const sub = await app.http("POST", "/api/webhooks/v1/subscriptions", { token, json: { url: "https://hooks.example.com/rotated", events: ["order.*"] } });
    expect((await postExample("webhooks-rotateSecret", { id: sub.body.data.id })).body.data).toMatchObject({ id: sub.body.data.id, previous_secret_expires_at: expect.any(String) });
    expect((await postExample("webhooks-replay")).body).toEqual({ success: true, data: { replayed: 0 } });
  });

  it("the pause example's body is valid: on a lump sum the refusal is the order's kind (409), not the body (400)", async () => {
    const { method, path: route, op } = operation("orders-pause");
    const orders = await app.http("GET", "/api/orders/v1?order_type=LUMPSUM_PURCHASE", { token });
    const target = route.replace("{id}", orders.body.data[0].id);
    const response = await app.http(method, target, { token, json: example(op), headers: { "Idempotency-Key": "example-pause-1" } });
    expect(response.status, response.text).toBe(409);
    expect(response.body.error.code).toBe("INVALID_STATE");
  });

  it("every example with a JSON body is posted by this file, the upload's file part aside", () => {
    const posted = ["orders-pause", "auth-token", "investors-create", "mandates-create", "orders-place", "brokerChanges-create", "webhooks-subscribe", "orderLinks-create", "publicLinks-pay", "holdings-lookup", "holdings-transactions", "investors-sync", "investors-update", "investors-addBankAccount", "webhooks-rotateSecret", "webhooks-replay"];
    const withJson = Object.values(document.paths as Json)
      .flatMap((item) => Object.values(item as Json))
      .filter((op: Json) => op.requestBody?.content["application/json"])
      .map((op: Json) => op.operationId);
    expect(withJson.sort()).toEqual(posted.sort());
  });
});
