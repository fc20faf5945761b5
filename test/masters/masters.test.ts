import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { upsertAmfiRecords } from "../../src/domains/masters/schemes.import.js";
import type { AmfiSchemeRecord } from "../../src/integrations/amfi/navall.js";

const app = useTestApp();
let token = "";

beforeAll(async () => {
  token = (await app.newDistributor()).token;
});

/** The contract of master-codes.md, value by value. */
const EXPECTED_VALUES: Record<string, string[]> = {
  bank_account_types: ["SB", "CB", "NE", "NO"],
  contact_relations: ["SELF", "SPOUSE", "DEPENDENT_CHILD", "DEPENDENT_SIBLING", "DEPENDENT_PARENT", "GUARDIAN"],
  demat_modes: ["PHYSICAL", "CDSL", "NSDL"],
  fatca_occupation_types: ["SERVICE", "BUSINESS", "OTHERS", "NOT_CATEGORISED"],
  genders: ["M", "F", "O"],
  guardian_relations: ["FATHER", "MOTHER", "COURT_APPOINTED"],
  holding_types: ["SINGLE", "JOINT", "ANYONE_OR_SURVIVOR"],
  income_slabs: ["31", "32", "33", "34", "35", "36"],
  kyc_types: ["KRA", "CKYC", "EKYC"],
  nominee_relationships: [
    "AUNT", "BROTHER_IN_LAW", "BROTHER", "DAUGHTER", "DAUGHTER_IN_LAW", "FATHER", "FATHER_IN_LAW", "GRANDDAUGHTER",
    "GRANDFATHER", "GRANDMOTHER", "GRANDSON", "MOTHER_IN_LAW", "MOTHER", "NEPHEW", "NIECE", "SISTER", "SISTER_IN_LAW",
    "SON", "SON_IN_LAW", "SPOUSE", "UNCLE", "OTHERS", "COURT_APPOINTED_LEGAL_GUARDIAN",
  ],
  occupations: [
    "BUSINESS", "SERVICE", "PROFESSIONAL", "AGRICULTURIST", "RETIRED", "HOUSEWIFE", "STUDENT", "OTHERS", "DOCTOR",
    "PRIVATE_SECTOR_SERVICE", "PUBLIC_SECTOR_SERVICE", "FOREX_DEALER", "GOVERNMENT_SERVICE",
  ],
  pep_options: ["YES", "NO", "RELATED"],
  tax_statuses: ["INDIVIDUAL", "MINOR", "NRI"],
  wealth_sources: ["SALARY", "BUSINESS_INCOME", "GIFT", "ANCESTRAL_PROPERTY", "RENTAL_INCOME", "PRIZE_MONEY", "ROYALTY", "OTHERS"],
};

describe("GET /api/masters/v1/investor-options", () => {
  it("returns exactly the 14 vocabularies with their values, {value, label} each", async () => {
    const res = await app.http("GET", "/api/masters/v1/investor-options", { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(EXPECTED_VALUES).sort());
    for (const [member, values] of Object.entries(EXPECTED_VALUES)) {
      const options = res.body[member] as Array<Record<string, string>>;
      expect(options.map((o) => o.value), member).toEqual(values);
      for (const o of options) {
        expect(Object.keys(o).sort(), member).toEqual(member === "tax_statuses" ? ["group", "label", "value"] : ["label", "value"]);
        expect(o.label?.length).toBeGreaterThan(0);
      }
    }
    expect(res.body.tax_statuses).toEqual([
      { value: "INDIVIDUAL", label: "Individual", group: "RESIDENT" },
      { value: "MINOR", label: "On behalf of minor", group: "RESIDENT" },
      { value: "NRI", label: "NRI - others", group: "NRI" },
    ]);
    expect(res.body.income_slabs[5]).toEqual({ value: "36", label: "Above 1 crore" });
  });

  it("needs a token and refuses query parameters it does not know", async () => {
    expect((await app.http("GET", "/api/masters/v1/investor-options")).status).toBe(401);
    const res = await app.http("GET", "/api/masters/v1/investor-options?foo=1", { token });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "foo", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" }]);
  });
});

describe("countries and states", () => {
  it("lists ISO 3166-1 countries", async () => {
    const res = await app.http("GET", "/api/masters/v1/countries", { token });
    expect(res.status).toBe(200);
    expect(res.body.countries.length).toBe(249 + 1);
    expect(res.body.countries).toContainEqual({ code: "IN", name: "India" });
    for (const c of res.body.countries) expect(c.code).toMatch(/^[A-Z]{2}$/);
  });

  it("lists India's 28 states and 8 union territories with ISO 3166-2 codes", async () => {
    const res = await app.http("GET", "/api/masters/v1/countries/IN/states", { token });
    expect(res.status).toBe(200);
    expect(res.body.country).toBe("IN");
    expect(res.body.states).toHaveLength(36);
    expect(res.body.states).toContainEqual({ code: "MH", name: "Maharashtra" });
    expect(res.body.states).toContainEqual({ code: "TG", name: "Telangana" });
    expect(res.body.states).toContainEqual({ code: "LA", name: "Ladakh" });
    expect(res.body.states).toContainEqual({ code: "DH", name: "Dadra and Nagar Haveli and Daman and Diu" });
    expect(new Set(res.body.states.map((s: { code: string }) => s.code)).size).toBe(36);
  });

  it("accepts a lower-case code, answers [] for countries without held subdivisions, 404 and 400 otherwise", async () => {
    expect((await app.http("GET", "/api/masters/v1/countries/in/states", { token })).body.states).toHaveLength(36);
    expect((await app.http("GET", "/api/masters/v1/countries/US/states", { token })).body).toEqual({ country: "US", states: [] });
    const unknown = await app.http("GET", "/api/masters/v1/countries/QQ/states", { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("NOT_FOUND");
    const malformed = await app.http("GET", "/api/masters/v1/countries/IND/states", { token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0].path).toBe("code");
  });
});

const record = (code: string, name: string, amc: string, nav: string | null, navDate: string | null): AmfiSchemeRecord => ({
  scheme_code: code,
  isin_growth: `INF000${code}`,
  isin_reinvestment: null,
  scheme_name: name,
  plan: "DIRECT",
  option: "GROWTH",
  nav,
  nav_date: navDate,
  amc_name: `${amc} Mutual Fund`,
  amc_code: amc,
  category: "Equity Scheme - Large Cap Fund",
  scheme_type: "Open Ended Schemes",
});

describe("GET /api/masters/v1/schemes", () => {
  beforeAll(async () => {
    const records = Array.from({ length: 25 }, (_, i) =>
      record(String(900100 + i), `Test ${i % 2 ? "Alpha" : "Beta"} Fund ${String(i).padStart(2, "0")}`, i < 10 ? "AMC_ONE" : "AMC_TWO", "12.3456", "2026-08-21"),
    );
    await upsertAmfiRecords(app.prisma, records);
  });

  it("returns schemes with every field, in name order, paged with a cursor", async () => {
    const first = await app.http("GET", "/api/masters/v1/schemes?q=test&limit=10", { token });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(10);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    expect(first.body.data[0]).toEqual({
      scheme_code: "900101",
      exchange_codes: [],
      sip_rules: [],
      isin: "INF000900101",
      isin_reinvestment: null,
      scheme_name: "Test Alpha Fund 01",
      amc_code: "AMC_ONE",
      amc_name: "AMC_ONE Mutual Fund",
      category: "Equity Scheme - Large Cap Fund",
      scheme_type: "Open Ended Schemes",
      plan: "DIRECT",
      option: "GROWTH",
      // No exchange code names it: not tradable (the exchange's master alone says what is).
      purchase_allowed: false,
      redemption_allowed: false,
      sip_allowed: false,
      min_purchase_amount: null,
      purchase_multiple: null,
      min_additional_amount: null,
      min_redemption_amount: null,
      min_sip_amount: null,
      sip_multiple: null,
      nav: 12.3456,
      nav_date: "2026-08-21",
    });
    const seen = [...first.body.data];
    let cursor = first.body.next_cursor as string | null;
    while (cursor) {
      const page = await app.http("GET", `/api/masters/v1/schemes?q=test&limit=10&cursor=${cursor}`, { token });
      seen.push(...page.body.data);
      cursor = page.body.next_cursor;
    }
    expect(seen.map((s) => s.scheme_code)).toHaveLength(25);
    expect(new Set(seen.map((s) => s.scheme_code)).size).toBe(25);
    const names = seen.map((s) => s.scheme_name as string);
    expect(names).toEqual([...names].sort());
  });

  it("filters by AMC and finds a scheme by code or ISIN", async () => {
    const amc = await app.http("GET", "/api/masters/v1/schemes?amc_code=AMC_ONE&limit=200", { token });
    expect(amc.body.data).toHaveLength(10);
    expect(amc.body.next_cursor).toBeNull();
    expect((await app.http("GET", "/api/masters/v1/schemes?q=900107", { token })).body.data.map((s: { scheme_code: string }) => s.scheme_code)).toEqual(["900107"]);
    expect((await app.http("GET", "/api/masters/v1/schemes?q=inf000900108", { token })).body.data[0].scheme_code).toBe("900108");
  });

  it("serves the sandbox seed set with its trading rules", async () => {
    const { seedSandbox } = await import("../../src/seed/sandbox.js");
    await seedSandbox(app.services);
    // Seeding is idempotent, demo investors included.
    await seedSandbox(app.services);
    const demo = await app.prisma.investor.findMany({ where: { clientRef: { startsWith: "demo-" } }, select: { status: true, clientRef: true } });
    expect(demo.sort((a, b) => a.clientRef!.localeCompare(b.clientRef!))).toEqual([
      { status: "PENDING", clientRef: "demo-pending" },
      { status: "REGISTERED", clientRef: "demo-registered" },
    ]);
    expect(await app.prisma.mandate.count({ where: { status: "REGISTERED", clientRef: "demo-registered-mandate" } })).toBe(1);
    const res = await app.http("GET", "/api/masters/v1/schemes?q=119544", { token });
    expect(res.body.data[0]).toMatchObject({ scheme_code: "119544", min_purchase_amount: 500, purchase_multiple: 500, sip_allowed: true });
  });

  it("refuses bad limits, damaged cursors and unknown parameters", async () => {
    for (const query of ["limit=0", "limit=201", "limit=abc", "cursor=not-a-cursor", "sort=name"]) {
      const res = await app.http("GET", `/api/masters/v1/schemes?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details[0].path).toBe(query.split("=")[0]);
    }
  });
});

describe("static master responses", () => {
  it("carry an ETag, answer 304 to If-None-Match, and still need a token when served again", async () => {
    const first = await app.http("GET", "/api/masters/v1/countries/IN/states", { token });
    const second = await app.http("GET", "/api/masters/v1/countries/IN/states", { token });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(second.headers.get("etag")).toBe(etag);
    expect(second.headers.get("cache-control")).toBe("private, no-cache");
    expect(second.headers.get("x-request-id")).toMatch(/^req_/);

    const revalidated = await app.http("GET", "/api/masters/v1/countries/IN/states", { token, headers: { "if-none-match": etag! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe("");

    const other = await app.http("GET", "/api/masters/v1/countries/US/states", { token });
    expect(other.body).toEqual({ country: "US", states: [] });
    expect(other.headers.get("etag")).not.toBe(etag);

    for (const headers of [{}, { authorization: "Bearer mfat_nope" }] as Array<Record<string, string>>) {
      const refused = await app.http("GET", "/api/masters/v1/countries/IN/states", { headers });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe("UNAUTHORIZED");
    }
  });

  it("are never kept for errors or for database-backed lists", async () => {
    for (let i = 0; i < 2; i++) expect((await app.http("GET", "/api/masters/v1/countries/QQ/states", { token })).status).toBe(404);
    const schemes = await app.http("GET", "/api/masters/v1/schemes?limit=1", { token });
    expect(schemes.headers.get("etag")).toBeNull();
  });
});
