import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { createOpenScheme, lumpsumOrder, orderingInvestor, placedOrder } from "../helpers/orders.js";

const app = useTestApp();

const envelope400 = (param: string, message: string, reason: string) => ({
  success: false,
  error: { code: "VALIDATION_ERROR", message: "The request is not valid", details: [{ path: param, message, reason }] },
  request_id: expect.any(String),
});

describe("path parameters of the REST API (security review, issue 25)", () => {
  it("are percent-decoded once: ord%5F... finds ord_... with the same body as the plain id", async () => {
    await createOpenScheme(app, "910001");
    const ctx = await orderingInvestor(app);
    const id = await placedOrder(app, ctx, lumpsumOrder("910001"));
    const plain = await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token });
    expect(plain.status).toBe(200);

    const encoded = await app.http("GET", `/api/orders/v1/${id.replace("_", "%5F")}`, { token: ctx.token });
    expect(encoded.status).toBe(200);
    expect(encoded.body).toEqual(plain.body);
    const lowerHex = await app.http("GET", `/api/orders/v1/${id.replace("_", "%5f")}`, { token: ctx.token });
    expect(lowerHex.body).toEqual(plain.body);

    // Once only: %255F is "%5F" after one decoding, which is no order's id.
    const twice = await app.http("GET", `/api/orders/v1/${id.replace("_", "%255F")}`, { token: ctx.token });
    expect(twice.status).toBe(404);
  });

  it("a decoded NUL is refused with 400 on the parameter's path, before authentication", async () => {
    const res = await app.http("GET", "/api/orders/v1/ord_%00x");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope400("id", "Must not contain the NUL character (U+0000)", "nul_character"));
  });

  it.each(["ord_%E0%A4", "ord_%zz", "ord_%", "%C0%AF"])("a malformed escape (%s) is 400 on the parameter's path", async (raw) => {
    const d = await app.newDistributor();
    const res = await app.http("GET", `/api/orders/v1/${raw}`, { token: d.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope400("id", "Must be valid percent-encoded UTF-8", "invalid_format"));
    expect(res.text).not.toContain(raw);
  });

  it("a body route decodes its path parameter as well", async () => {
    const d = await app.newDistributor();
    const unknown = await app.http("POST", "/api/mandates/v1/man%5Fnone/cancel", { token: d.token, json: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("Mandate not found");
    const malformed = await app.http("POST", "/api/mandates/v1/man_%zz/cancel", { token: d.token, json: {} });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(envelope400("id", "Must be valid percent-encoded UTF-8", "invalid_format"));
  });

  it("404 answers never echo the id or the path that was sent", async () => {
    const d = await app.newDistributor();
    const probes = [
      "/api/orders/v1/ord_%3Cscript%3Ealert(1)%3C%2Fscript%3E",
      "/api/orders/v1/ord_echo-me-back",
      "/api/investors/v1/inv_echo-me-back",
      "/api/mandates/v1/man_echo-me-back",
      "/api/payments/v1/pay_echo-me-back",
      "/api/webhooks/v1/deliveries/whd_echo-me-back",
      "/api/masters/v1/countries/ZZ/states",
      "/api/masters/v1/schemes/echo-me-back",
      "/api/no-such-route/echo-me-back",
      "/no-such-page/echo-me-back",
    ];
    for (const path of probes) {
      const res = await app.http("GET", path, { token: d.token });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code, path).toBe("NOT_FOUND");
      expect(res.text, path).not.toMatch(/echo-me-back|script|ZZ/i);
    }
    const order = await app.http("GET", "/api/orders/v1/ord_echo-me-back", { token: d.token });
    expect(order.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Order not found" }, request_id: expect.any(String) });
    expect((await app.http("GET", "/api/no-such-route/echo-me-back")).body.error.message).toBe("Not found");
    expect((await app.http("GET", "/no-such-page/echo-me-back")).body.error.message).toBe("No route for GET on this path");
  });
});
