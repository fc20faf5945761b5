import { createHash } from "node:crypto";
import type { DbOrTx } from "../../platform/db/client.js";
import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { notFound, validationError } from "../../platform/lib/errors.js";
import { newId } from "../../platform/lib/ids.js";
import { maskPan } from "../../platform/lib/mask.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import type { DataCipher } from "../../platform/lib/crypto.js";
import { distributorNameAndArn } from "../auth/distributors.service.js";
import { findInvestorOf, investorById, investorDetails } from "../investors/investors.service.js";
import { decryptDetails } from "../investors/investors.service.js";
import { amcExists } from "../masters/schemes.service.js";
import type { BrokerChangeStatus } from "./broker-change.states.js";
import type { DocumentContentType } from "../../integrations/registrars/port.js";
import type { CreateBrokerChangeInput } from "./broker-changes.schemas.js";
import * as repo from "./broker-changes.repo.js";
import type { BrokerChangeRow } from "./broker-changes.repo.js";
import { recordCreated, statusAtCreation, submitWithSignedForm } from "./lifecycle.js";
import { referenceIssues, requireAwaitingForm } from "./rules.js";
import { toBrokerChangeView, type BrokerChangeView } from "./views.js";

const SCOPE_CREATE = "POST /api/broker-changes/v1";

/** Whatever the id (unknown, malformed, another distributor's), the same answer. */
const brokerChangeNotFound = () => notFound("Broker change request");

/** The masked primary-holder PAN of each investor named (one query, decrypted here, never stored in clear). */
async function maskedPans(db: DbOrTx, cipher: DataCipher, investorIds: string[]): Promise<Map<string, string>> {
  const rows = await investorDetails(db, [...new Set(investorIds)]);
  return new Map(rows.map((row) => [row.id, maskPan(decryptDetails(cipher, row).primary_holder.pan)]));
}

async function viewOf(db: DbOrTx, cipher: DataCipher, row: BrokerChangeRow): Promise<BrokerChangeView> {
  return toBrokerChangeView(row, (await maskedPans(db, cipher, [row.investorId])).get(row.investorId) ?? "");
}

/**
 * Creates a broker change request for one of the caller's investors (an investor of anyone else is a
 * 400 on `investor_id`) and an AMC of the scheme master. WET_SIGNATURE waits for its signed form
 * (PENDING_DOCUMENT); TWO_FA is SUBMITTED at once, with its event and registrar job in the same transaction.
 */
export async function createBrokerChange(
  services: Services,
  caller: Caller,
  input: CreateBrokerChangeInput,
  options: { idempotencyKey?: string | undefined } = {},
): Promise<Stored<BrokerChangeView>> {
  const distributorId = caller.distributorId;
  return idempotent(services.prisma, { distributorId, scope: SCOPE_CREATE, key: options.idempotencyKey, body: input }, async (tx) => {
    const investor = await findInvestorOf(tx, distributorId, input.investor_id);
    const details = referenceIssues({ investor: investor !== null, amc: await amcExists(tx, input.amc_code) }, input.amc_code);
    if (!investor || details.length > 0) throw validationError(details);
    const distributor = await distributorNameAndArn(tx, distributorId);
    if (!distributor) throw new Error(`Distributor ${distributorId} of a valid token does not exist`);
    const row = await repo.insertBrokerChange(tx, {
      id: newId("bcr"),
      distributorId,
      investorId: investor.id,
      amcCode: input.amc_code,
      folioNo: input.folio_no,
      authMode: input.auth_mode,
      twoFaChannel: input.two_fa_channel ?? null,
      status: statusAtCreation(input.auth_mode),
      brokerCode: distributor.arn,
      clientRef: input.client_ref ?? null,
      euin: input.euin ?? null,
      subBrokerCode: input.sub_broker_code ?? null,
      riaCode: input.ria_code ?? null,
      createdAt: new Date(),
    });
    await recordCreated(tx, row);
    return { status: 201, body: toBrokerChangeView(row, maskPan(decryptDetails(services.cipher, investor).primary_holder.pan)) };
  });
}

export async function getBrokerChange(services: Services, caller: Caller, id: string): Promise<BrokerChangeView> {
  const row = await repo.findBrokerChange(services.prisma, caller.distributorId, id);
  if (!row) throw brokerChangeNotFound();
  return viewOf(services.prisma, services.cipher, row);
}

export async function listBrokerChanges(
  services: Services,
  caller: Caller,
  query: { status?: BrokerChangeStatus; investor_id?: string; limit: number; cursor?: string },
): Promise<{ data: BrokerChangeView[]; next_cursor: string | null }> {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const rows = await repo.listBrokerChanges(services.prisma, {
    distributorId: caller.distributorId,
    status: query.status,
    investorId: query.investor_id,
    afterId,
    limit: query.limit,
  });
  const pans = await maskedPans(services.prisma, services.cipher, rows.slice(0, query.limit).map((r) => r.investorId));
  return toPage(rows, query.limit, (row) => [row.id], (row) => toBrokerChangeView(row, pans.get(row.investorId) ?? ""));
}

/**
 * The upload's precheck, before a byte of the body is read: 404 unless the request is the caller's,
 * 409 unless it awaits its signed form. Writes nothing; attachSignedForm checks again under the row lock.
 */
export async function assertAwaitingSignedForm(services: Services, caller: Caller, id: string): Promise<void> {
  const row = await repo.findBrokerChange(services.prisma, caller.distributorId, id);
  if (!row) throw brokerChangeNotFound();
  requireAwaitingForm(row);
}

export interface SignedForm {
  bytes: Buffer;
  /** Hex SHA-256 of `bytes`, as the upload computed it while streaming. */
  sha256: string;
  size: number;
  /** As judged by the bytes (magic numbers), never by what the client declared. */
  contentType: DocumentContentType;
}

/**
 * Stores a WET_SIGNATURE request's signed form and moves it PENDING_DOCUMENT -> SUBMITTED, with its event and
 * registrar job, in one transaction under the request's row lock: of two concurrent uploads one wins, the
 * other sees SUBMITTED and is 409. Answers the updated record.
 */
export async function attachSignedForm(services: Services, caller: Caller, id: string, file: SignedForm): Promise<BrokerChangeView> {
  // The upload computed these while streaming; a mismatch is a bug there, never stored.
  if (file.size !== file.bytes.length || file.sha256 !== createHash("sha256").update(file.bytes).digest("hex")) {
    throw new Error("The signed form's size or SHA-256 does not match its bytes");
  }
  return services.prisma.$transaction(async (tx) => {
    const row = await repo.lockBrokerChange(tx, caller.distributorId, id);
    if (!row) throw brokerChangeNotFound();
    requireAwaitingForm(row);
    const now = new Date();
    await repo.insertDocument(tx, { brokerChangeId: id, contentType: file.contentType, size: file.size, sha256: file.sha256, bytes: file.bytes, createdAt: now });
    return viewOf(tx, services.cipher, await submitWithSignedForm(tx, id));
  });
}

/** The stored signed form of one of the caller's requests: 404 for another's request, or before an upload. */
export async function getSignedForm(services: Services, caller: Caller, id: string) {
  const document = await repo.findDocument(services.prisma, caller.distributorId, id);
  if (!document) throw notFound("Signed form");
  return { bytes: document.bytes, contentType: document.contentType, size: document.size, sha256: document.sha256 };
}

/**
 * The submit job: hands a SUBMITTED request to the registrar port once (a request already handed over, or
 * no longer SUBMITTED, is left alone), then records when and the registrar's reference.
 */
export async function submitToRegistrar(services: Services, id: string): Promise<void> {
  const db = services.prisma;
  const row = await repo.findBrokerChangeById(db, id);
  if (!row || row.status !== "SUBMITTED" || row.handedOverAt !== null) return;
  const investor = await investorById(db, row.investorId);
  if (!investor) throw new Error(`Investor ${row.investorId} of broker change request ${id} does not exist`);
  const document = row.authMode === "WET_SIGNATURE" ? await repo.findDocument(db, row.distributorId, id) : null;
  const receipt = await services.registrar.submitBrokerChange({
    id,
    amcCode: row.amcCode,
    folioNo: row.folioNo,
    pan: decryptDetails(services.cipher, investor).primary_holder.pan,
    authMode: row.authMode,
    twoFaChannel: row.twoFaChannel,
    brokerCode: row.brokerCode,
    euin: row.euin,
    subBrokerCode: row.subBrokerCode,
    riaCode: row.riaCode,
    document: document && { contentType: document.contentType, size: document.size, sha256: document.sha256, bytes: document.bytes },
  });
  await repo.markHandedOver(db, id, receipt.reference, new Date());
}
