import { describe, expect, it } from "vitest";
import { ORDER_TYPE, ORDER_TYPES, isRegistration, orderType, orderTypesWhere } from "../../src/domains/orders/order-types.js";

/** The order-type table, read back as the sets the design names for each order type. */
describe("the order-type table", () => {
  it("has one row per order type", () => {
    expect(Object.keys(ORDER_TYPE).sort()).toEqual([...ORDER_TYPES].sort());
  });

  it("names each type's detail object", () => {
    expect(Object.fromEntries(ORDER_TYPES.map((t) => [t, ORDER_TYPE[t].detailObject]))).toEqual({
      LUMPSUM_PURCHASE: null, REDEMPTION: null, SWITCH: "switch", SIP: "sip", XSIP: "sip", STP: "stp", SWP: "swp", SIP_TOPUP: "sip",
    });
  });

  it("places lump sums and top-ups UNPAID and every other type NOT_REQUIRED", () => {
    expect(orderTypesWhere((t) => t.payment === "UNPAID")).toEqual(["LUMPSUM_PURCHASE", "SIP_TOPUP"]);
  });

  it("moves units in for purchases, out for redemptions and SWPs, across for switches and STPs", () => {
    expect(orderTypesWhere((t) => t.units === "in")).toEqual(["LUMPSUM_PURCHASE", "SIP", "XSIP", "SIP_TOPUP"]);
    expect(orderTypesWhere((t) => t.units === "out")).toEqual(["REDEMPTION", "SWP"]);
    expect(orderTypesWhere((t) => t.units === "move")).toEqual(["SWITCH", "STP"]);
    expect(orderTypesWhere((t) => t.checkedAgainstHolding)).toEqual(["REDEMPTION", "SWITCH"]);
  });

  it("has SIP, XSIP, STP and SWP registrations with installments; only XSIP installments debit the mandate", () => {
    expect(orderTypesWhere((t) => t.installments !== null)).toEqual(["SIP", "XSIP", "STP", "SWP"]);
    expect(orderTypesWhere((t) => t.installments?.payment === "UNPAID")).toEqual(["SIP", "XSIP"]);
    expect(orderTypesWhere((t) => t.installments?.mandateDebit === true)).toEqual(["XSIP"]);
    expect(orderTypesWhere((t) => t.mandate === "required")).toEqual(["XSIP"]);
    expect(orderTypesWhere((t) => t.sip)).toEqual(["SIP", "XSIP"]);
    expect(orderTypesWhere((t) => t.topsUpSip)).toEqual(["SIP_TOPUP"]);
  });

  it("tells a registration from its installments, and refuses a type outside the table", () => {
    expect(isRegistration({ orderType: "STP", parentOrderId: null })).toBe(true);
    expect(isRegistration({ orderType: "STP", parentOrderId: "ord_1" })).toBe(false);
    expect(isRegistration({ orderType: "SIP_TOPUP", parentOrderId: null })).toBe(false);
    expect(() => orderType("BOND")).toThrow("Unknown order type BOND");
  });
});
