import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { createScheme, orderingInvestor } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createScheme(app, "960001", { name: "Held Scheme", nav: "20.0000", navDate: new Date("2026-11-20") });
  await createScheme(app, "960002", { name: "Target Scheme" });
  ctx = await orderingInvestor(app);
  const { distributorId } = await app.prisma.investor.findUniqueOrThrow({ where: { id: ctx.investorId }, select: { distributorId: true } });
  // What the registrar reported for folio 4455/12 under this distributor's ARN (the importer's own tests cover how it gets there).
  for (const [folioNo, units] of [["4455/12", "100.500"], ["9999/1", "0.000"]] as const) {
    await app.prisma.holdingPosition.create({
      data: {
        distributorId, registrar: "CAMS", amcCode: "TEST_AMC", folioNo, registrarSchemeCode: "T960001", schemeCode: "960001",
        schemeName: "Held Scheme", units, balanceDate: new Date("2026-11-21"), holdingNature: "SINGLE", feedFileId: "hff_test",
      },
    });
  }
});

const redeem = (overrides: Record<string, unknown>) =>
  app.http("POST", "/api/orders/v1/", { token: ctx.token, json: { investment_account_id: ctx.account, order_type: "REDEMPTION", scheme_code: "960001", ...overrides } });

describe("redemptions within the folio's known units", () => {
  it("accepts up to the units held, and an amount up to their value at the latest NAV", async () => {
    expect((await redeem({ folio_no: "4455/12", units: 100.5 })).status).toBe(201);
    expect((await redeem({ folio_no: "4455/12", amount: 2010 })).status).toBe(201);
    expect((await redeem({ folio_no: "4455/12", all_units: true })).status).toBe(201);
  });

  it("refuses more units or a larger amount than the folio holds, and a folio with none, writing nothing", async () => {
    const before = await app.prisma.order.count();
    const cases = [
      [{ folio_no: "4455/12", units: 100.501 }, "units", "units_exceed_holding"],
      [{ folio_no: "4455/12", amount: 2010.01 }, "amount", "amount_exceeds_holding"],
      [{ folio_no: "9999/1", all_units: true }, "folio_no", "no_units_held"],
      [{ order_type: "SWITCH", folio_no: "4455/12", units: 200, switch: { to_scheme_code: "960002" } }, "units", "units_exceed_holding"],
    ] as const;
    for (const [body, path, reason] of cases) {
      const res = await redeem(body);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path, reason, message: expect.stringContaining("holds") }]);
    }
    expect(await app.prisma.order.count()).toBe(before);
  });

  it("leaves folios the holdings do not know to the exchange", async () => {
    expect((await redeem({ folio_no: "1234/5", units: 1_000_000 })).status).toBe(201);
  });
});
