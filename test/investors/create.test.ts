import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { twoDistributors } from "../helpers/investors.js";
import { investorBody, nomineeBody, randomPan, yearsAgo } from "../helpers/factories.js";
import { queuedJobs } from "../helpers/jobs.js";

const app = useTestApp();
let token = "";
let otherToken = "";

beforeAll(async () => {
  ({ token, otherToken } = await twoDistributors(app));
});

const create = (json: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
  app.http("POST", "/api/investors/v1", { token: options.token ?? token, json, headers: options.headers });

describe("POST /api/investors/v1", () => {
  it("creates the investor (PENDING), its investment account and bank accounts, masked, and queues UCC registration", async () => {
    const body = investorBody({ client_ref: "crm-42" });
    const pan = body.primary_holder.pan;
    const res = await create(body);
    expect(res.status).toBe(201);
    const investor = res.body;
    expect(investor.id).toMatch(/^inv_/);
    expect(investor).toMatchObject({
      status: "PENDING",
      client_ref: "crm-42",
      pan: `${pan.slice(0, 2)}XXXXX${pan.slice(-3)}`,
      name: "Asha Rao",
      tax_status: "INDIVIDUAL",
      holding_type: "SINGLE",
      contact: { email: "a***@example.in", mobile: "XXXXXX3210", email_relation: "SELF", mobile_relation: "SELF" },
      demat: { mode: "PHYSICAL", dp_id: null, client_id: null },
      provider_remark: null,
    });
    expect(investor.investment_account_id).toMatch(/^iac_/);
    expect(investor.investment_accounts).toEqual([{ id: investor.investment_account_id, holding_mode: "PHYSICAL", created_at: expect.any(String) }]);
    expect(investor.bank_accounts).toEqual([
      { id: expect.stringMatching(/^bnk_/), account_type: "SB", account_number: "XXXXXXXX7890", ifsc: "HDFC0001234", is_primary: true },
    ]);
    expect(res.text).not.toContain(pan);
    expect(res.text).not.toContain("9876543210");
    expect(res.text).not.toContain("asha.rao@");
    expect(res.text).not.toContain("001234567890");

    const row = await app.prisma.investor.findUniqueOrThrow({ where: { id: investor.id } });
    expect(row.status).toBe("PENDING");
    expect(row.detailsEncrypted).not.toContain(pan);
    expect(row.panHash).toBe(app.services.cipher.lookupHash(pan));
    const account = await app.prisma.bankAccount.findFirstOrThrow({ where: { investorId: investor.id } });
    expect(account.accountNumberEncrypted).not.toContain("001234567890");
    expect(app.services.cipher.decrypt(account.accountNumberEncrypted)).toBe("001234567890");
    const jobs = await queuedJobs(app, "investors__register", "investor_id", investor.id);
    expect(jobs).toHaveLength(1);
    // Nothing personal reaches a log line, even after the worker has handled the investor.
    const { registerInvestor } = await import("../../src/domains/investors/jobs/register.js");
    await registerInvestor({ investor_id: investor.id }, { services: app.services, log: app.services.logger, job: {} as never });
    const logs = app.logs.join("\n");
    for (const secret of [pan, "9876543210", "asha.rao@example.in", "001234567890"]) expect(logs).not.toContain(secret);
  });

  it("refuses the same PAN twice under one distributor, naming the existing investor; another distributor may hold it", async () => {
    const body = investorBody();
    const first = await create(body);
    const again = await create({ ...body, client_ref: "other" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");
    expect(again.body.error.message).toContain(first.body.id);
    expect(again.body.error.details).toEqual([{ path: "primary_holder.pan", message: `already registered as ${first.body.id}`, reason: "pan_already_registered" }]);
    expect((await create(body, { token: otherToken })).status).toBe(201);
  });

  it("replays the first response for a repeated Idempotency-Key and refuses the key with another body", async () => {
    const body = investorBody();
    const key = `idem-${Date.now()}`;
    const first = await create(body, { headers: { "idempotency-key": key } });
    const repeat = await create(body, { headers: { "idempotency-key": key } });
    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.body).toEqual(first.body);
    expect(await app.prisma.investor.count({ where: { panHash: app.services.cipher.lookupHash(body.primary_holder.pan) } })).toBe(1);

    const different = await create(investorBody(), { headers: { "idempotency-key": key } });
    expect(different.status).toBe(409);
    expect(different.body.error.code).toBe("CONFLICT");
    // Keys belong to one distributor.
    expect((await create(investorBody(), { token: otherToken, headers: { "idempotency-key": key } })).status).toBe(201);
  });

  it("holds under concurrency: simultaneous repeats of one key create one investor, simultaneous same PANs one", async () => {
    const body = investorBody();
    const headers = { "idempotency-key": `race-${Date.now()}` };
    const repeats = await Promise.all([1, 2, 3, 4].map(() => create(body, { headers })));
    expect(repeats.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(repeats.map((r) => r.body.id)).size).toBe(1);

    const samePan = investorBody();
    const racing = await Promise.all([1, 2, 3].map((i) => create({ ...samePan, client_ref: `race-${i}` })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await app.prisma.investor.count({ where: { panHash: app.services.cipher.lookupHash(samePan.primary_holder.pan) } })).toBe(1);
  });

  it("creates a joint NRI investor with demat details and a minor nominee with a guardian", async () => {
    const res = await create(
      investorBody({
        tax_status: "NRI",
        holding_type: "JOINT",
        joint_holders: [{ pan: randomPan(), name: "Vikram Rao", date_of_birth: "1985-01-30", kyc_type: "CKYC" }],
        contact: { email: "v@example.com", mobile: "+14155550123", email_relation: "SELF", mobile_relation: "SPOUSE" },
        address: { line1: "1 Main St", city: "Austin", state_code: "TX", pincode: "73301", country_code: "US" },
        bank_accounts: [
          { account_type: "NE", account_number: "99887766", ifsc: "ICIC0000001", is_primary: true },
          { account_type: "NO", account_number: "11223344", ifsc: "ICIC0000001", is_primary: false },
        ],
        nominees: [
          nomineeBody({
            name: "Kid Rao",
            relationship: "SON",
            percentage: 60.5,
            date_of_birth: yearsAgo(10),
            guardian: { name: "Asha Rao", relationship: "MOTHER", identity: { type: "PASSPORT", number: "K1234567" } },
          }),
          nomineeBody({ name: "Old Rao", relationship: "FATHER", percentage: 39.5, date_of_birth: "1950-03-03" }),
        ],
        demat: { mode: "NSDL", dp_id: "IN300123", client_id: "12345678" },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.joint_holders).toHaveLength(1);
    expect(res.body.demat).toEqual({ mode: "NSDL", dp_id: "IN300123", client_id: "XXXX5678" });
    expect(res.body.investment_accounts[0].holding_mode).toBe("NSDL");
    expect(res.body.contact.mobile).toBe("XXXXXXX0123");
  });

  it("creates a minor with a guardian", async () => {
    const res = await create(
      investorBody({
        tax_status: "MINOR",
        primary_holder: { pan: randomPan(), name: "Kid Rao", date_of_birth: yearsAgo(12), gender: "M", occupation: "STUDENT", kyc_type: "KRA" },
        guardian: { name: "Asha Rao", pan: randomPan(), relationship: "MOTHER" },
        contact: { email: "asha@example.in", mobile: "9876543210", email_relation: "GUARDIAN", mobile_relation: "GUARDIAN" },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.guardian).toMatchObject({ name: "Asha Rao", relationship: "MOTHER" });
    expect(res.body.guardian.pan).toMatch(/^[A-Z]{2}XXXXX[0-9]{2}[A-Z]$/);
  });
});
