import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, twoFaBody, wetSignatureBody } from "../helpers/broker-changes.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
});

/** A refused creation: 400 VALIDATION_ERROR with exactly these details, and nothing written. */
async function expectRefused(body: unknown, details: Array<{ path: string; reason: string; message?: string }>) {
  const before = await app.prisma.brokerChange.count();
  const res = await createBrokerChange(app, ctx.token, body);
  expect(res.status, res.text).toBe(400);
  expect(res.body).toEqual({
    success: false,
    error: { code: "VALIDATION_ERROR", message: expect.any(String), details: details.map((d) => ({ message: expect.any(String), ...d })) },
    request_id: expect.any(String),
  });
  expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
  expect(await app.prisma.brokerChange.count()).toBe(before);
  return res;
}

describe("POST /api/broker-changes/v1 refusals", () => {
  it("refuses an investor of another distributor with 400 on investor_id (not 404), and an unknown one alike", async () => {
    const res = await expectRefused(wetSignatureBody(ctx.otherInvestor), [{ path: "investor_id", reason: "investor_not_found", message: "is not one of your investors" }]);
    expect(res.text).not.toContain(ctx.otherInvestor.pan);
    await expectRefused(wetSignatureBody({ id: "inv_unknown" }), [{ path: "investor_id", reason: "investor_not_found" }]);
  });

  it("refuses an AMC that is not in the scheme master, and reports it with a foreign investor at once", async () => {
    await expectRefused(wetSignatureBody(ctx.investor, { amc_code: "NO_SUCH_AMC" }), [
      { path: "amc_code", reason: "amc_not_found", message: "no AMC NO_SUCH_AMC in the scheme master: use an amc_code of GET /api/masters/v1/schemes" },
    ]);
    await expectRefused(wetSignatureBody(ctx.otherInvestor, { amc_code: "NO_SUCH_AMC" }), [
      { path: "investor_id", reason: "investor_not_found" },
      { path: "amc_code", reason: "amc_not_found" },
    ]);
  });

  it("needs two_fa_channel for TWO_FA and refuses it for WET_SIGNATURE", async () => {
    await expectRefused(twoFaBody(ctx.investor, { two_fa_channel: undefined }), [{ path: "two_fa_channel", reason: "required", message: "is required for TWO_FA" }]);
    await expectRefused(wetSignatureBody(ctx.investor, { two_fa_channel: "SMS" }), [
      { path: "two_fa_channel", reason: "field_not_allowed", message: "is not used by WET_SIGNATURE" },
    ]);
    await expectRefused(twoFaBody(ctx.investor, { two_fa_channel: "WHATSAPP" }), [{ path: "two_fa_channel", reason: "invalid_value" }]);
  });

  it.each([
    ["folio_no", "", "invalid_format"],
    ["folio_no", "/123", "invalid_format"],
    ["folio_no", "123 456", "invalid_format"],
    ["folio_no", "1".repeat(21), "invalid_format"],
    ["euin", "E12345", "invalid_format"],
    ["euin", "X123456", "invalid_format"],
    ["euin", "E1234567", "invalid_format"],
    ["sub_broker_code", "ARN123", "invalid_format"],
    ["sub_broker_code", "ARN-", "invalid_format"],
    ["ria_code", "INA12345678", "invalid_format"],
    ["ria_code", "INB123456789", "invalid_format"],
    ["client_ref", "has space", "invalid_format"],
    ["auth_mode", "OTP", "invalid_value"],
    ["amc_code", "", "too_small"],
    ["investor_id", 42, "invalid_type"],
  ])("refuses %s %j (%s)", async (field, value, reason) => {
    await expectRefused(wetSignatureBody(ctx.investor, { [field]: value }), [{ path: field, reason }]);
  });

  // A missing enum is `invalid_value` (zod 4 reports it as a bad option, as for every enum of the API).
  it("names every missing field, and an unknown one", async () => {
    await expectRefused({}, [
      { path: "investor_id", reason: "required" },
      { path: "amc_code", reason: "required" },
      { path: "folio_no", reason: "required" },
      { path: "auth_mode", reason: "invalid_value" },
    ]);
    await expectRefused(wetSignatureBody(ctx.investor, { broker_code: "ARN-1" }), [{ path: "broker_code", reason: "unknown_field" }]);
  });

  it("refuses a request without a token (401) and a malformed Idempotency-Key (400), writing nothing", async () => {
    const before = await app.prisma.brokerChange.count();
    const anonymous = await app.http("POST", "/api/broker-changes/v1", { json: wetSignatureBody(ctx.investor) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, error: { code: "UNAUTHORIZED" } });
    const badKey = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor), { "idempotency-key": "x".repeat(256) });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.details).toEqual([{ path: "Idempotency-Key", reason: "invalid_format", message: expect.any(String) }]);
    expect(await app.prisma.brokerChange.count()).toBe(before);
  });
});
