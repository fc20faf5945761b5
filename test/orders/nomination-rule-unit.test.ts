import { describe, expect, it } from "vitest";
import { nominationViolations, type OrderRequest } from "../../src/domains/orders/rules.js";

const order = (orderType: OrderRequest["order_type"], fields: Partial<OrderRequest> = {}) =>
  ({ order_type: orderType, scheme_code: "970001", amount: 1000, ...fields });
const reasons = (o: OrderRequest, mode: "PHYSICAL" | "CDSL" | "NSDL" | null, nomination: "NOMINATED" | "OPTED_OUT" | "NONE") =>
  nominationViolations(o, mode, nomination).map((v) => `${v.path}:${v.reason}`);

describe("nominationViolations", () => {
  it("a FRESH purchase, a SIP and an XSIP opening a PHYSICAL folio need nominees or an opt-out", () => {
    for (const o of [order("LUMPSUM_PURCHASE", { purchase_type: "FRESH" }), order("SIP"), order("XSIP")]) {
      expect(reasons(o, "PHYSICAL", "NONE")).toEqual(["investment_account_id:nomination_required"]);
      expect(reasons(o, null, "NONE")).toEqual(["investment_account_id:nomination_required"]);
      expect(reasons(o, "PHYSICAL", "NOMINATED")).toEqual([]);
      expect(reasons(o, "PHYSICAL", "OPTED_OUT")).toEqual([]);
      expect(reasons(o, "CDSL", "NONE")).toEqual([]);
      expect(reasons(o, "NSDL", "NONE")).toEqual([]);
    }
  });

  it("orders that open no folio are not concerned", () => {
    for (const o of [
      order("LUMPSUM_PURCHASE", { purchase_type: "ADDITIONAL" }),
      order("REDEMPTION"),
      order("SWITCH"),
      order("STP"),
      order("SWP"),
      order("SIP_TOPUP"),
    ]) {
      expect(reasons(o, "PHYSICAL", "NONE")).toEqual([]);
    }
  });
});
