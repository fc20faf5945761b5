import { createHash } from "node:crypto";
import type { Db, DbOrTx, Tx } from "../../platform/db/client.js";
import { recordEvent } from "../events/events.repo.js";
import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { invalidState, notFound, validationError, type ErrorDetail } from "../../platform/lib/errors.js";
import { newId } from "../../platform/lib/ids.js";
import { maskFreeText, maskPan } from "../../platform/lib/mask.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import type { DataCipher } from "../../platform/lib/crypto.js";
import { findDistributor } from "../auth/auth.repo.js";
import { findInvestor, findInvestorById, investorDetails } from "../investors/investors.repo.js";
import { decryptDetails } from "../investors/investors.service.js";
import { amcExists } from "../masters/schemes.repo.js";
import type { BrokerChangeStatus } from "./broker-change.states.js";
import type { DocumentContentType } from "../../integrations/registrars/port.js";
import type { CreateBrokerChangeInput } from "./broker-changes.schemas.js";
import * as repo from "./broker-changes.repo.js";
import type { BrokerChangeRow } from "./broker-changes.repo.js";

const SCOPE_CREATE = "POST /api/broker-changes/v1";

/** Whatever the id (unknown, malformed, another distributor's), the same answer. */
const brokerChangeNotFound = () => notFound("Broker change request");

export type BrokerChangeView = ReturnType<typeof toView>;

function toView(row: BrokerChangeRow, maskedPan: string) {
  return {
    id: row.id,
    investor_id: row.investorId,
    pan: maskedPan,
    amc_code: row.amcCode,
    folio_no: row.folioNo,
    auth_mode: row.authMode,
    status: row.status,
    broker_code: row.brokerCode,
    client_ref: row.clientRef,
    euin: row.euin,
    sub_broker_code: row.subBrokerCode,
    ria_code: row.riaCode,
    two_fa_channel: row.twoFaChannel,
    provider_remark: row.providerRemark,
    document: row.document && {
      content_type: row.document.contentType,
      size: row.document.size,
      sha256: row.document.sha256,
      uploaded_at: row.document.createdAt.toISOString(),
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The masked primary-holder PAN of each investor named (one query, decrypted here, never stored in clear). */
async function maskedPans(db: DbOrTx, cipher: DataCipher, investorIds: string[]): Promise<Map<string, string>> {
  const rows = await investorDetails(db, [...new Set(investorIds)]);
  return new Map(rows.map((row) => [row.id, maskPan(decryptDetails(cipher, row).primary_holder.pan)]));
}

async function viewOf(db: DbOrTx, cipher: DataCipher, row: BrokerChangeRow): Promise<BrokerChangeView> {
  return toView(row, (await maskedPans(db, cipher, [row.investorId])).get(row.investorId) ?? "");
}

/** In the transaction that makes a request SUBMITTED: its event, and the job that hands it to the registrar. */
async function recordSubmitted(tx: Tx, row: BrokerChangeRow): Promise<void> {
  await recordEvent(tx, {
    distributorId: row.distributorId,
    resourceType: "broker_change",
    resourceId: row.id,
    event: "broker_change.submitted",
    data: { broker_change_id: row.id, status: "SUBMITTED", provider_remark: null },
  });
  await enqueue(tx, "broker_changes__submit", { broker_change_id: row.id }, { jobKey: `broker_changes__submit:${row.id}` });
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
    const investor = await findInvestor(tx, distributorId, input.investor_id);
    const details: ErrorDetail[] = [];
    if (!investor) details.push({ path: "investor_id", reason: "investor_not_found", message: `is not one of your investors` });
    if (!(await amcExists(tx, input.amc_code))) {
      details.push({ path: "amc_code", reason: "amc_not_found", message: `no AMC ${input.amc_code} in the scheme master: use an amc_code of GET /api/masters/v1/schemes` });
    }
    if (!investor || details.length > 0) throw validationError(details);
    const distributor = await findDistributor(tx, distributorId);
    if (!distributor) throw new Error(`Distributor ${distributorId} of a valid token does not exist`);
    const row = await repo.insertBrokerChange(tx, {
      id: newId("bcr"),
      distributorId,
      investorId: investor.id,
      amcCode: input.amc_code,
      folioNo: input.folio_no,
      authMode: input.auth_mode,
      twoFaChannel: input.two_fa_channel ?? null,
      status: input.auth_mode === "TWO_FA" ? "SUBMITTED" : "PENDING_DOCUMENT",
      brokerCode: distributor.arn,
      clientRef: input.client_ref ?? null,
      euin: input.euin ?? null,
      subBrokerCode: input.sub_broker_code ?? null,
      riaCode: input.ria_code ?? null,
      createdAt: new Date(),
    });
    if (row.status === "SUBMITTED") await recordSubmitted(tx, row);
    return { status: 201, body: toView(row, maskPan(decryptDetails(services.cipher, investor).primary_holder.pan)) };
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
  return toPage(rows, query.limit, (row) => [row.id], (row) => toView(row, pans.get(row.investorId) ?? ""));
}

/** 409 INVALID_STATE unless the request takes a signed form: WET_SIGNATURE, still PENDING_DOCUMENT. */
function requireAwaitingForm(row: BrokerChangeRow): void {
  if (row.authMode !== "WET_SIGNATURE") {
    throw invalidState(`Broker change request ${row.id} is ${row.authMode}; only a WET_SIGNATURE request takes a signed form`);
  }
  if (row.status !== "PENDING_DOCUMENT") {
    throw invalidState(`Broker change request ${row.id} is ${row.status}; only a PENDING_DOCUMENT request takes a signed form`);
  }
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
    if (!(await repo.moveStatus(tx, id, "PENDING_DOCUMENT", { status: "SUBMITTED" }))) {
      throw new Error("A locked PENDING_DOCUMENT broker change request could not be submitted");
    }
    const submitted = await repo.findBrokerChangeById(tx, id);
    if (!submitted) throw new Error(`Broker change request ${id} vanished inside its transaction`);
    await recordSubmitted(tx, submitted);
    return viewOf(tx, services.cipher, submitted);
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
  const investor = await findInvestorById(db, row.investorId);
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

/**
 * The registrar rejects a SUBMITTED request: REJECTED with its remark (stored with PANs masked) and the
 * event, in one transaction. False when the request was not SUBMITTED (nothing changes).
 */
export async function rejectBrokerChange(db: Db, id: string, providerRemark: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const remark = maskFreeText(providerRemark);
    if (!(await repo.moveStatus(tx, id, "SUBMITTED", { status: "REJECTED", providerRemark: remark }))) return false;
    const row = await repo.findBrokerChangeById(tx, id);
    if (!row) throw new Error(`Broker change request ${id} vanished inside its transaction`);
    await recordEvent(tx, {
      distributorId: row.distributorId,
      resourceType: "broker_change",
      resourceId: id,
      event: "broker_change.rejected",
      data: { broker_change_id: id, status: "REJECTED", provider_remark: remark },
    });
    return true;
  });
}
