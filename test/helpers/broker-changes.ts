import { createHash } from "node:crypto";
import { attachSignedForm } from "../../src/domains/broker-changes/broker-changes.service.js";
import type { DocumentContentType } from "../../src/integrations/registrars/port.js";
import type { Caller } from "../../src/domains/shared/caller.js";
import type { TestApp } from "./app.js";
import { pendingInvestor, type TestInvestor } from "./investors.js";
import { createScheme } from "./orders.js";

/** The AMC of the scheme master the tests name (a scheme of it is created once per database). */
export const BC_AMC = "BCTEST_AMC";

/** A distributor (token, ARN and the caller its token stands for) with an investor, and a second distributor with one. */
export async function brokerChangeDistributors(app: TestApp) {
  if (!(await app.prisma.scheme.findUnique({ where: { schemeCode: "940001" } }))) {
    await createScheme(app, "940001", { amcCode: BC_AMC, amcName: "Broker Change Test Mutual Fund" });
  }
  const mine = await app.newDistributor({ name: "Mehta Advisors" });
  const other = await app.newDistributor();
  const investor: TestInvestor = await pendingInvestor(app, mine.token);
  const otherInvestor: TestInvestor = await pendingInvestor(app, other.token);
  const caller: Caller = { distributorId: mine.distributor_id, clientId: mine.client_id };
  const otherCaller: Caller = { distributorId: other.distributor_id, clientId: other.client_id };
  return { token: mine.token, arn: mine.arn, caller, investor, otherToken: other.token, otherCaller, otherInvestor };
}

export const wetSignatureBody = (investor: { id: string }, overrides: Record<string, unknown> = {}) => ({
  investor_id: investor.id, amc_code: BC_AMC, folio_no: "1234567/89", auth_mode: "WET_SIGNATURE", ...overrides,
});

export const twoFaBody = (investor: { id: string }, overrides: Record<string, unknown> = {}) =>
  wetSignatureBody(investor, { auth_mode: "TWO_FA", two_fa_channel: "EMAIL", ...overrides });

export const createBrokerChange = (app: TestApp, token: string, json: unknown, headers: Record<string, string> = {}) =>
  app.http("POST", "/api/broker-changes/v1", { token, json, headers });

/** A tiny but real PDF (its magic bytes and trailer). */
export const SAMPLE_PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

/** A signed form as the upload route hands it to attachSignedForm. */
export function signedForm(bytes: Buffer = SAMPLE_PDF, contentType: DocumentContentType = "application/pdf") {
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length, contentType };
}

/** A WET_SIGNATURE request created (201) and its form attached: SUBMITTED. Its id. */
export async function submittedWetSignature(app: TestApp, ctx: { token: string; caller: Caller; investor: TestInvestor }, form = signedForm()) {
  const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
  if (created.status !== 201) throw new Error(`broker change not created: ${created.status} ${created.text}`);
  await attachSignedForm(app.services, ctx.caller, created.body.id, form);
  return created.body.id as string;
}
