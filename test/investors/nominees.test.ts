import { beforeAll, describe, expect, it } from "vitest";
import { decryptDetails } from "../../src/domains/investors/investors.service.js";
import { registerInvestor } from "../../src/domains/investors/jobs/register.js";
import { sendInvestorChange } from "../../src/domains/investors/jobs/send-change.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody, nomineeBody, yearsAgo } from "../helpers/factories.js";
import { pendingInvestor, registeredInvestor, twoDistributors } from "../helpers/investors.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";

const app = useTestApp();
let token = "";
let otherToken = "";

beforeAll(async () => {
  ({ token, otherToken } = await twoDistributors(app));
});

const ADDRESS = { line1: "7 Lake View", line2: "Flat 3B", city: "Hyderabad", state: "TG", pincode: "500081", country: "IN" };
const MINOR_GUARDIAN = { name: "Asha Rao", relationship: "MOTHER", identity: { type: "DRIVING_LICENCE", number: "TS09 20150012345" } };

/** Two nominees with every identity kind between them: an adult by Aadhaar, a minor with a guardian by driving licence. */
const twoNominees = () => [
  nomineeBody({ name: "Meera Rao", relationship: "MOTHER", percentage: 66.67, date_of_birth: "1960-02-29", identity: { type: "AADHAAR_LAST4", number: "4821" }, contact: { email: "meera.rao@example.in", address: ADDRESS } }),
  nomineeBody({ name: "Kid Rao", relationship: "SON", percentage: 33.33, date_of_birth: yearsAgo(9), identity: { type: "PASSPORT", number: "z7654321" }, guardian: MINOR_GUARDIAN }),
];

const rawDetails = async (id: string) => (await app.prisma.investor.findUniqueOrThrow({ where: { id } })).detailsEncrypted;
const storedDetails = async (id: string) => decryptDetails(app.services.cipher, await app.prisma.investor.findUniqueOrThrow({ where: { id } }));

describe("nominees with identity and contact (SEBI 2025)", () => {
  it("creation: the view masks identities, email and mobile; the database keeps them encrypted", async () => {
    const res = await app.http("POST", "/api/investors/v1", { token, json: investorBody({ nominees: twoNominees() }) });
    expect(res.status).toBe(201);
    expect(res.body.nominees).toEqual([
      {
        name: "Meera Rao",
        relationship: "MOTHER",
        percentage: 66.67,
        date_of_birth: "1960-02-29",
        identity: { type: "AADHAAR_LAST4", number: "XXXXXXXX4821" },
        contact: { email: "m***@example.in", mobile: null, address: { ...ADDRESS, line3: null } },
        guardian: null,
        guardian_name: null,
      },
      {
        name: "Kid Rao",
        relationship: "SON",
        percentage: 33.33,
        date_of_birth: yearsAgo(9),
        identity: { type: "PASSPORT", number: "XXXX4321" },
        contact: { email: null, mobile: "XXXXXX2233", address: { line1: "12 MG Road", line2: null, line3: null, city: "Pune", state: "MH", pincode: "411001", country: "IN" } },
        guardian: { name: "Asha Rao", relationship: "MOTHER", identity: { type: "DRIVING_LICENCE", number: "XXXXXXXXXXX2345" } },
        guardian_name: "Asha Rao",
      },
    ]);
    for (const clear of ["meera.rao@example.in", "9811122233", "Z7654321", "TS0920150012345"]) expect(res.text).not.toContain(clear);
    // The address is shown (as the investor's own is), but like every personal detail it is stored encrypted.
    for (const clear of ["meera.rao@example.in", "9811122233", "Z7654321", "TS0920150012345", "7 Lake View"]) {
      expect(await rawDetails(res.body.id)).not.toContain(clear);
    }
    // Stored normalised (upper case, no spaces), encrypted with the rest of the investor's details.
    const stored = await storedDetails(res.body.id);
    expect(stored.nominees[1]).toMatchObject({ identity: { type: "PASSPORT", number: "Z7654321" }, guardian: { identity: { number: "TS0920150012345" } } });
    const fetched = await app.http("GET", `/api/investors/v1/${res.body.id}`, { token });
    expect(fetched.body.nominees).toEqual(res.body.nominees);
  });

  it("a PAN identity is masked as every PAN is; the registration sends the documented UCC nominee fields to the exchange", async () => {
    const { id } = await pendingInvestor(app, token, investorBody({ nominees: [nomineeBody({ date_of_birth: yearsAgo(17), guardian: MINOR_GUARDIAN })] }));
    const view = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(view.body.nominees[0].identity).toEqual({ type: "PAN", number: "BCXXXXX45K" });
    expect(view.text).not.toContain("BCDPR2345K");
    await runTask(app, registerInvestor, { investor_id: id });
    const { uccCode } = await app.prisma.investor.findUniqueOrThrow({ where: { id } });
    const record = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "UCC", reference: uccCode } } });
    expect(record.payload).toMatchObject({ nominees: 1 });
    expect(JSON.stringify(record.payload)).not.toContain("BCDPR2345K");
  });

  it("PATCH of a PENDING investor replaces the nominees in place, encrypted", async () => {
    const { id } = await pendingInvestor(app, token);
    const res = await app.http("PATCH", `/api/investors/v1/${id}`, { token, json: { nominees: twoNominees() } });
    expect(res.status).toBe(200);
    expect(res.body.nominees.map((n: { identity: unknown }) => n.identity)).toEqual([
      { type: "AADHAAR_LAST4", number: "XXXXXXXX4821" },
      { type: "PASSPORT", number: "XXXX4321" },
    ]);
    expect(await rawDetails(id)).not.toContain("Z7654321");
    expect((await storedDetails(id)).nominees).toHaveLength(2);
  });

  it("PATCH of a REGISTERED investor: the new nominees wait, encrypted, in the pending change until the exchange applies it", async () => {
    const { id } = await registeredInvestor(app, token);
    const res = await app.http("PATCH", `/api/investors/v1/${id}`, { token, json: { nominees: twoNominees() } });
    expect(res.status).toBe(200);
    expect(res.body.nominees[0].identity).toEqual({ type: "PAN", number: "BCXXXXX45K" });
    const changeId: string = res.body.pending_change.id;
    expect(res.body.pending_change.fields).toEqual(["nominees"]);
    expect((await app.prisma.investorChange.findUniqueOrThrow({ where: { id: changeId } })).valuesEncrypted).not.toContain("Z7654321");
    await queuedJobs(app, "investors__send_change", "change_id", changeId);
    await runTask(app, sendInvestorChange, { change_id: changeId });
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/apply-change`, { token })).status).toBe(200);
    const after = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(after.body.nominees.map((n: { name: string; percentage: number }) => [n.name, n.percentage])).toEqual([
      ["Meera Rao", 66.67],
      ["Kid Rao", 33.33],
    ]);
  });

  it("nominees stored before the 2025 framework still read, with identity and contact null", async () => {
    const { id } = await pendingInvestor(app, token);
    const details = await storedDetails(id);
    const legacy = { ...details, nominees: [{ name: "Old Rao", relationship: "FATHER", percentage: 100, date_of_birth: yearsAgo(10), guardian_name: "Asha Rao" }] };
    await app.prisma.investor.update({ where: { id }, data: { detailsEncrypted: app.services.cipher.encrypt(JSON.stringify(legacy)) } });
    const res = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.nominees).toEqual([
      {
        name: "Old Rao",
        relationship: "FATHER",
        percentage: 100,
        date_of_birth: yearsAgo(10),
        identity: null,
        contact: null,
        guardian: { name: "Asha Rao", relationship: null, identity: null },
        guardian_name: "Asha Rao",
      },
    ]);
    // A change of another field leaves them as they are; the exchange still gets them (registration job).
    expect((await app.http("PATCH", `/api/investors/v1/${id}`, { token, json: { occupation: "BUSINESS" } })).status).toBe(200);
    await runTask(app, registerInvestor, { investor_id: id });
    expect((await storedDetails(id)).nominees).toEqual(legacy.nominees);
  });

  it("another distributor cannot change an investor's nominees (404), and nothing changes", async () => {
    const { id } = await pendingInvestor(app, token);
    const before = await rawDetails(id);
    const res = await app.http("PATCH", `/api/investors/v1/${id}`, { token: otherToken, json: { nominees: twoNominees() } });
    expect(res.status).toBe(404);
    expect(await rawDetails(id)).toBe(before);
  });
});

type Body = ReturnType<typeof investorBody>;
const withNominee = (overrides: Record<string, unknown>) => (b: Body) => ({ ...b, nominees: [nomineeBody(overrides)] });

/** [what is wrong, the body change, the [path, reason] pairs the 400 must list exactly]. */
const REFUSED: Array<[string, (b: Body) => unknown, Array<[string, string]>]> = [
  ["malformed PAN", withNominee({ identity: { type: "PAN", number: "BCDPR23450" } }), [["nominees[0].identity.number", "invalid_format"]]],
  ["Aadhaar of 12 digits", withNominee({ identity: { type: "AADHAAR_LAST4", number: "123412341234" } }), [["nominees[0].identity.number", "invalid_format"]]],
  ["Aadhaar with letters", withNominee({ identity: { type: "AADHAAR_LAST4", number: "12a4" } }), [["nominees[0].identity.number", "invalid_format"]]],
  ["short driving licence", withNominee({ identity: { type: "DRIVING_LICENCE", number: "MH12 2011" } }), [["nominees[0].identity.number", "invalid_format"]]],
  ["passport of digits", withNominee({ identity: { type: "PASSPORT", number: "12345678" } }), [["nominees[0].identity.number", "invalid_format"]]],
  ["unknown identity type", withNominee({ identity: { type: "VOTER_ID", number: "ABC1234567" } }), [["nominees[0].identity.type", "invalid_value"]]],
  ["no identity", withNominee({ identity: undefined }), [["nominees[0].identity", "required"]]],
  ["no contact", withNominee({ contact: undefined }), [["nominees[0].contact", "required"]]],
  ["neither email nor mobile", withNominee({ contact: { address: ADDRESS } }), [["nominees[0].contact", "required"]]],
  ["no address", withNominee({ contact: { mobile: "9811122233" } }), [["nominees[0].contact.address", "required"]]],
  ["bad Indian PIN code", withNominee({ contact: { mobile: "9811122233", address: { ...ADDRESS, pincode: "50008" } } }), [["nominees[0].contact.address.pincode", "invalid_format"]]],
  ["no date of birth", withNominee({ date_of_birth: undefined }), [["nominees[0].date_of_birth", "required"]]],
  ["minor without guardian", withNominee({ date_of_birth: yearsAgo(17) }), [["nominees[0].guardian", "required"]]],
  ["guardian for an adult", withNominee({ guardian: MINOR_GUARDIAN }), [["nominees[0].guardian", "field_not_allowed"]]],
  ["guardian without identity", withNominee({ date_of_birth: yearsAgo(3), guardian: { name: "Asha Rao" } }), [["nominees[0].guardian.identity", "required"]]],
  ["the old guardian_name (now guardian)", withNominee({ guardian_name: "Asha Rao" }), [["nominees[0].guardian_name", "unknown_field"]]],
  ["shares of 99.99", (b) => ({ ...b, nominees: [nomineeBody({ percentage: 66.66 }), nomineeBody({ percentage: 33.33 })] }), [["nominees", "rule_violated"]]],
  ["three decimals", withNominee({ percentage: 99.999 }), [["nominees[0].percentage", "too_many_decimals"]]],
  ["four nominees", (b) => ({ ...b, nominees: [1, 2, 3, 4].map(() => nomineeBody({ percentage: 25 })) }), [["nominees", "too_big"]]],
  ["a bad second nominee", (b) => ({ ...b, nominees: [nomineeBody({ percentage: 50 }), nomineeBody({ percentage: 50, identity: { type: "PAN", number: "X" } })] }), [["nominees[1].identity.number", "invalid_format"]]],
];

describe("nominees refused (400 with field paths)", () => {
  it.each(REFUSED)("at creation: %s", async (_name, change, expected) => {
    const before = await app.prisma.investor.count();
    const res = await app.http("POST", "/api/investors/v1", { token, json: change(investorBody()) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string; reason: string }) => [d.path, d.reason])).toEqual(expected);
    expect(await app.prisma.investor.count()).toBe(before);
  });

  it.each(REFUSED)("on PATCH: %s", async (_name, change, expected) => {
    const { id } = await pendingInvestor(app, token);
    const before = await rawDetails(id);
    const { nominees } = change(investorBody()) as { nominees: unknown };
    const res = await app.http("PATCH", `/api/investors/v1/${id}`, { token, json: { nominees } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string; reason: string }) => [d.path, d.reason])).toEqual(expected);
    expect(await rawDetails(id)).toBe(before);
  });
});
