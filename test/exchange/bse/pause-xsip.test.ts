import { describe, expect, it } from "vitest";
import type { Db } from "../../../src/platform/db/client.js";
import { BseExchange } from "../../../src/integrations/exchange/bse/bse-exchange.js";
import type { OrderEntry } from "../../../src/integrations/exchange/port.js";
import { newId } from "../../../src/platform/lib/ids.js";
import type { BseDouble } from "../../helpers/bse-double/double.js";
import { doubleConfig, useBseAdapterWorld } from "../../helpers/bse-double/adapter-world.js";
import { capturingLogger } from "../../helpers/logs.js";

/** The adapter's PauseSIP for an XSIP registration, and the double's limit on pauses per registration (issue 26). */

let prisma: Db;
let double: BseDouble;

useBseAdapterWorld((world) => {
  ({ prisma, double } = world);
});

const exchange = () => new BseExchange(prisma, doubleConfig(double, { apiKey: double.pauses.apiKey }), capturingLogger().logger);

const xsip = (): OrderEntry => ({
  orderId: newId("ord"), clientCode: "UCC0001", orderType: "XSIP", schemeCode: "02-DP", toSchemeCode: null, purchaseType: null,
  amount: "5000.00", units: null, allUnits: false, folioNo: null, mandateId: null, exchangeMandateId: "123456", euin: null, euinDeclared: true,
  remarks: null, holdingMode: "PHYSICAL", subBrokerArn: null, payoutAccountNumber: null,
  plan: { frequency: "MONTHLY", startDate: "2026-03-20", installments: 12, installmentDay: 5 },
});

describe("pausing an XSIP with the BSE adapter", () => {
  it("sends RegistrationType XSIP with the XSIP registration number; the double books it and refuses a second pause", async () => {
    const entry = xsip();
    const { exchangeOrderNumber: regNo } = await exchange().placeOrder(entry);
    expect(double.plans.registrations.at(-1)).toMatchObject({ kind: "XSIP", regNo });

    expect(await exchange().pauseSip(entry.orderId, 3)).toEqual({ paused: true });
    expect(double.pauses.received.at(-1)).toMatchObject({ ClientCode: "UCC0001", RegistrationType: "XSIP", RegistrationNumber: Number(regNo), ModificationType: "PAUSE", NoOfInstalments: 3 });
    expect(double.pauses.pauses.filter((p) => p.regNo === regNo)).toEqual([{ kind: "XSIP", regNo, clientCode: "UCC0001", installments: 3 }]);

    expect(await exchange().pauseSip(entry.orderId, 1)).toEqual({ paused: false, remark: "FAILED: PAUSE LIMIT EXCEEDED FOR THIS XSIP REGISTRATION" });
    expect(double.pauses.pauses.filter((p) => p.regNo === regNo)).toHaveLength(1);
  });

  it("a cancelled XSIP cannot be paused", async () => {
    const entry = xsip();
    await exchange().placeOrder(entry);
    const booked = double.pauses.pauses.length;
    expect(await exchange().cancelOrder(entry.orderId)).toEqual({ cancelled: true });
    expect(await exchange().pauseSip(entry.orderId, 2)).toEqual({ paused: false, remark: "FAILED: XSIP ALREADY CANCELLED" });
    expect(double.pauses.pauses).toHaveLength(booked);
  });
});
