import { describe, expect, it } from "vitest";
import type { Db } from "../../../src/platform/db/client.js";
import type { BseConfig } from "../../../src/integrations/exchange/bse/bse-config.js";
import { BseExchange } from "../../../src/integrations/exchange/bse/bse-exchange.js";
import { ExchangeUnavailableError, type OrderEntry } from "../../../src/integrations/exchange/port.js";
import { newId } from "../../../src/platform/lib/ids.js";
import type { BseDouble } from "../../helpers/bse-double/double.js";
import { doubleConfig, useBseAdapterWorld } from "../../helpers/bse-double/adapter-world.js";
import { capturingLogger } from "../../helpers/logs.js";

let prisma: Db;
let double: BseDouble;
const logs = capturingLogger("debug");

const MOBILE = "9876543210";
const EMAIL = "asha.rao@example.com";
const ACCOUNT = "50100123456789";

useBseAdapterWorld((world) => {
  ({ prisma, double } = world);
  double.registrations.clients.set("UCC0001", { clientCode: "UCC0001", regnType: "NEW", fields: [], accounts: [ACCOUNT] });
});

const exchange = (overrides: Partial<BseConfig> = {}) =>
  new BseExchange(
    prisma,
    doubleConfig(double, { apiKey: "double-api-key", ...overrides }),
    logs.logger,
  );

const plan = { frequency: "MONTHLY" as const, startDate: "2026-03-20", installments: 6, installmentDay: null };
const base = (fields: Partial<OrderEntry>): OrderEntry => ({
  orderId: newId("ord"), clientCode: "UCC0001", orderType: "STP", schemeCode: "02-DP", toSchemeCode: "03-GR", purchaseType: "FRESH",
  amount: "2000.00", units: null, allUnits: false, folioNo: "F1", mandateId: null, euin: null, euinDeclared: true, remarks: null,
  holdingMode: "PHYSICAL", subBrokerArn: null, payoutAccountNumber: null, plan, contact: { mobile: MOBILE, email: EMAIL }, ...fields,
});
const stp = (fields: Partial<OrderEntry> = {}) => base(fields);
const swp = (fields: Partial<OrderEntry> = {}) => base({ orderType: "SWP", toSchemeCode: null, purchaseType: null, payoutAccountNumber: ACCOUNT, ...fields });
const refsOf = (orderId: string) => prisma.bseOrderRef.findMany({ where: { orderId }, orderBy: { sentAt: "asc" } });
const mfapiCalls = (flag: string) => double.calls.filter((c) => c.operation === "MFAPI" && c.params.some(([n, v]) => n === "Flag" && v === flag));

describe("STP (the enhanced STP API) against the double", () => {
  it("registers: every field in the document's order, the API key header, ACCEPTED with the registration number; placed again, nothing is sent", async () => {
    const entry = stp({ euin: "E123456", euinDeclared: false, subBrokerArn: "ARN-1", remarks: "monthly transfer" });
    const placement = await exchange().placeOrder(entry);
    const [ref] = await refsOf(entry.orderId);
    const registration = [...double.transfers.stps.values()].at(-1)!;
    expect(placement).toEqual({ status: "ACCEPTED", exchangeOrderNumber: registration.registrationNo, remark: "STP REGISTRATION DONE SUCCESSFULLY" });
    expect(Object.entries(double.transfers.received.at(-1)!)).toEqual([
      ["LoginId", "1023401"], ["MemberCode", "10234"], ["Password", "Uat@pass1"], ["TransType", "NEW"], ["STPType", "EXCH"], ["ClientCode", "UCC0001"],
      ["FromBSESchemeCode", "02-DP"], ["ToBSESchemeCode", "03-GR"], ["BuySellType", "Fresh"], ["TransactionMode", "P"], ["FolioNo", "F1"], ["STPRegNo", ""],
      ["IntRefNo", `${ref!.transNo.slice(4, 8)}${ref!.transNo.slice(-6)}`], ["StartDate", "20/03/2026"], ["FrequencyType", "Monthly"], ["NoOfTransfers", "6"],
      ["InstAmount", "2000.00"], ["InstUnit", ""], ["FirstOrderToday", "N"], ["SubBrokerCode", ""], ["EUINDeclaration", "N"], ["EUINNumber", "E123456"],
      ["Remarks", "monthly transfer"], ["EndDate", ""], ["SubBrokerARN", "ARN-1"], ["Filler1", MOBILE], ["Filler2", EMAIL], ["Filler3", ""], ["Filler4", ""], ["Filler5", ""],
    ]);
    expect(ref).toMatchObject({ kind: "STP", outcome: "ACCEPTED", exchangeOrderNumber: registration.registrationNo });
    // What the cancellation needs, without the investor's contact or our password.
    expect(JSON.stringify(ref!.request)).not.toMatch(new RegExp(`${MOBILE}|${EMAIL}|Uat@pass1`));

    const received = double.transfers.received.length;
    expect(await exchange().placeOrder(entry)).toEqual(placement);
    expect(double.transfers.received.length).toBe(received);
  });

  it("a refusal is REJECTED with the exchange's remark and its failure code", async () => {
    double.transfers.rejectNext("FAILED: INVALID CLIENT CODE");
    const entry = stp();
    expect(await exchange().placeOrder(entry)).toEqual({ status: "REJECTED", exchangeOrderNumber: null, remark: "FAILED: INVALID CLIENT CODE", failureCode: "client_not_registered" });
    expect(await refsOf(entry.orderId)).toMatchObject([{ kind: "STP", outcome: "REJECTED" }]);
  });

  it("what the exchange cannot take is REJECTED before anything is sent (no folio, a field too long)", async () => {
    const received = double.transfers.received.length;
    expect(await exchange().placeOrder(stp({ folioNo: null }))).toMatchObject({ status: "REJECTED", remark: "THE EXCHANGE TAKES STP AND SWP ON AN EXISTING FOLIO ONLY" });
    expect(await exchange().placeOrder(stp({ folioNo: "F".repeat(16) }))).toMatchObject({
      status: "REJECTED", remark: "NOT SENT TO THE EXCHANGE: folioNo is longer than the exchange's 15 characters",
    });
    expect(double.transfers.received.length).toBe(received);
  });

  it("a wrong API key or wrong credentials are the unavailable error (the job retries), never a rejection of the order", async () => {
    const entry = stp();
    await expect(exchange({ apiKey: "wrong" }).placeOrder(entry)).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect(await refsOf(entry.orderId)).toMatchObject([{ outcome: "NOT_PLACED" }]);
    const other = stp();
    await expect(exchange({ password: "Wrong@1" }).placeOrder(other)).rejects.toThrow("BSE STP registration refused: FAILED:INVALID ACCOUNT INFORMATION");
    // The exchange took nothing under that TransNo: once the password is fixed, the retry registers the STP.
    expect(await refsOf(other.orderId)).toMatchObject([{ outcome: "NOT_PLACED" }]);
    expect((await exchange().placeOrder(other)).status).toBe("ACCEPTED");
  });

  it("refused for our member: REJECTED member_not_permitted with the exchange's words, after one call; never sent again", async () => {
    double.transfers.rejectNext("FAILED: THE MEMBER IS SUSPENDED. CONTACT ADMIN");
    const entry = stp();
    const received = double.transfers.received.length;
    const rejected = { status: "REJECTED", exchangeOrderNumber: null, remark: "FAILED: THE MEMBER IS SUSPENDED. CONTACT ADMIN", failureCode: "member_not_permitted" };
    expect(await exchange().placeOrder(entry)).toEqual(rejected);
    expect(double.transfers.received.length).toBe(received + 1);
    expect(await refsOf(entry.orderId)).toMatchObject([{ kind: "STP", outcome: "REJECTED", remark: rejected.remark }]);
    expect(await exchange().placeOrder(entry)).toEqual(rejected);
    expect(double.transfers.received.length).toBe(received + 1);
  });

  it("cancels (CXL repeating the registration, naming its number); a second cancel sends nothing; one the exchange already cancelled counts as cancelled", async () => {
    const entry = stp();
    const placed = await exchange().placeOrder(entry);
    expect(await exchange().cancelOrder(entry.orderId)).toEqual({ cancelled: true });
    const cxl = double.transfers.received.at(-1)!;
    expect(cxl).toMatchObject({ TransType: "CXL", STPRegNo: placed.exchangeOrderNumber, ClientCode: "UCC0001", FromBSESchemeCode: "02-DP", ToBSESchemeCode: "03-GR", Filler1: "", Filler2: "" });
    expect(double.transfers.stps.get(placed.exchangeOrderNumber!)!.cancelled).toBe(true);
    expect((await refsOf(entry.orderId)).map((r) => [r.kind, r.outcome, r.exchangeOrderNumber])).toEqual([
      ["STP", "ACCEPTED", placed.exchangeOrderNumber], ["STP_CANCEL", "ACCEPTED", placed.exchangeOrderNumber],
    ]);
    const received = double.transfers.received.length;
    expect(await exchange().cancelOrder(entry.orderId)).toEqual({ cancelled: true });
    expect(double.transfers.received.length).toBe(received);

    const other = stp();
    const second = await exchange().placeOrder(other);
    double.transfers.stps.get(second.exchangeOrderNumber!)!.cancelled = true;
    expect(await exchange().cancelOrder(other.orderId)).toEqual({ cancelled: true });
    const third = stp();
    await exchange().placeOrder(third);
    double.transfers.rejectNext("FAILED: CANCELLATION NOT ALLOWED");
    expect(await exchange().cancelOrder(third.orderId)).toEqual({ cancelled: false, remark: "FAILED: CANCELLATION NOT ALLOWED" });
  });
});

describe("SWP (MFAPI flags 08 and 10) against the double", () => {
  it("registers: the 19 fields in order (mobile, e-mail, bank account), ACCEPTED with the registration number from the answer", async () => {
    const entry = swp({ holdingMode: "CDSL", euin: "E123456", euinDeclared: false });
    const placement = await exchange().placeOrder(entry);
    const [ref] = await refsOf(entry.orderId);
    const registration = [...double.registrations.swps.values()].at(-1)!;
    expect(placement).toEqual({ status: "ACCEPTED", exchangeOrderNumber: registration.registrationNo, remark: `SWP REGISTRATION DONE SUCCESSFULLY. SWP REG NO : ${registration.registrationNo}` });
    const param = Object.fromEntries(mfapiCalls("08").at(-1)!.params).param;
    expect(param).toBe(`UCC0001|02-DP|D|F1|${ref!.transNo.slice(4, 8)}${ref!.transNo.slice(-6)}|20/03/2026|6|Monthly|2000.00||N||N|E123456|||${MOBILE}|${EMAIL}|${ACCOUNT}`);
    expect(ref).toMatchObject({ kind: "SWP", outcome: "ACCEPTED", exchangeOrderNumber: registration.registrationNo, request: { clientCode: "UCC0001" } });
  });

  it("by units; an international mobile is left out (the field takes an Indian 10-digit number)", async () => {
    const entry = swp({ amount: null, units: "12.500", contact: { mobile: "+447700900123", email: EMAIL } });
    expect((await exchange().placeOrder(entry)).status).toBe("ACCEPTED");
    const fields = Object.fromEntries(mfapiCalls("08").at(-1)!.params).param!.split("|");
    expect([fields[8], fields[9], fields[16]]).toEqual(["", "12.500", ""]);
  });

  it("a refusal is REJECTED with the remark; no bank account is REJECTED before anything is sent", async () => {
    const refused = swp({ payoutAccountNumber: "99999999" });
    expect(await exchange().placeOrder(refused)).toEqual({ status: "REJECTED", exchangeOrderNumber: null, remark: "FAILED: INVALID BANK ACCOUNT NUMBER", failureCode: "exchange_rejected" });
    const calls = mfapiCalls("08").length;
    expect(await exchange().placeOrder(swp({ payoutAccountNumber: null }))).toEqual({
      status: "REJECTED", exchangeOrderNumber: null, remark: "THE INVESTOR HAS NO BANK ACCOUNT FOR THE PAYOUT", failureCode: "payout_account_invalid",
    });
    expect(mfapiCalls("08").length).toBe(calls);
  });

  it("refused for our member: REJECTED member_not_permitted with the exchange's words, after one call; never sent again", async () => {
    double.registrations.rejectNext("08", "INVALID USER ID");
    const entry = swp();
    const calls = mfapiCalls("08").length;
    const rejected = { status: "REJECTED", exchangeOrderNumber: null, remark: "INVALID USER ID", failureCode: "member_not_permitted" };
    expect(await exchange().placeOrder(entry)).toEqual(rejected);
    expect(await exchange().placeOrder(entry)).toEqual(rejected);
    expect(mfapiCalls("08").length).toBe(calls + 1);
    expect(await refsOf(entry.orderId)).toMatchObject([{ kind: "SWP", outcome: "REJECTED", remark: "INVALID USER ID" }]);
  });

  it("a refused login of the upload session is unavailable (the job retries): nothing placed, the retry registers the SWP once", async () => {
    double.sessions.failNextLogin("USER IS DISABLED. CONTACT ADMIN");
    const entry = swp();
    const calls = mfapiCalls("08").length;
    const error = await exchange().placeOrder(entry).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeUnavailableError);
    expect((error as Error).message).toBe("BSE upload login failed: USER IS DISABLED. CONTACT ADMIN");
    expect(await refsOf(entry.orderId)).toMatchObject([{ kind: "SWP", outcome: "NOT_PLACED" }]);
    expect(mfapiCalls("08").length).toBe(calls);

    const placed = await exchange().placeOrder(entry);
    expect(placed.status).toBe("ACCEPTED");
    expect(mfapiCalls("08").length).toBe(calls + 1);
    expect((await refsOf(entry.orderId)).map((r) => r.outcome)).toEqual(["NOT_PLACED", "ACCEPTED"]);
  });

  it("cancels with flag 10 (registration number, client code); once; one already cancelled at the exchange counts as cancelled", async () => {
    const entry = swp();
    const placed = await exchange().placeOrder(entry);
    expect(await exchange().cancelOrder(entry.orderId)).toEqual({ cancelled: true });
    expect(Object.fromEntries(mfapiCalls("10").at(-1)!.params).param).toBe(`${placed.exchangeOrderNumber}|UCC0001|`);
    expect(double.registrations.swps.get(placed.exchangeOrderNumber!)!.cancelled).toBe(true);
    const calls = mfapiCalls("10").length;
    expect(await exchange().cancelOrder(entry.orderId)).toEqual({ cancelled: true });
    expect(mfapiCalls("10").length).toBe(calls);

    const other = swp();
    const second = await exchange().placeOrder(other);
    double.registrations.swps.get(second.exchangeOrderNumber!)!.cancelled = true;
    expect(await exchange().cancelOrder(other.orderId)).toEqual({ cancelled: true });
    expect((await refsOf(other.orderId)).map((r) => [r.kind, r.outcome, r.remark])).toEqual([
      ["SWP", "ACCEPTED", expect.any(String)], ["SWP_CANCEL", "REJECTED", "FAILED: SWP ALREADY CANCELLED"],
    ]);
  });

  it("the investor's mobile, e-mail and bank account and our password are in no log line", () => {
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.lines.join("\n")).not.toMatch(new RegExp(`${MOBILE}|${EMAIL}|${ACCOUNT}|Uat@pass1`));
  });
});
