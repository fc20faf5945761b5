import type { Db } from "../../platform/db/client.js";
import { insertRecordOnce } from "../exchange/sandbox/sandbox.repo.js";
import type { Logger } from "../../platform/lib/logger.js";
import { maskPan } from "../../platform/lib/mask.js";
import type { BrokerChangeSubmission, RegistrarPort, RegistrarReceipt } from "./port.js";

/** What a log line or the sandbox books may keep of a submission: no PAN in clear, no bytes. */
function maskedSubmission(submission: BrokerChangeSubmission) {
  const { document, pan, ...rest } = submission;
  return {
    broker_change_id: rest.id,
    amc_code: rest.amcCode,
    folio_no: rest.folioNo,
    pan: maskPan(pan),
    auth_mode: rest.authMode,
    two_fa_channel: rest.twoFaChannel,
    broker_code: rest.brokerCode,
    euin: rest.euin,
    sub_broker_code: rest.subBrokerCode,
    ria_code: rest.riaCode,
    document: document && { content_type: document.contentType, size: document.size, sha256: document.sha256 },
  };
}

/**
 * The sandbox registrar: books each request it receives once (kind BROKER_CHANGE, PENDING) and answers
 * its reference; a simulation endpoint rejects it (`GET /api/simulation/broker-changes/v1/{id}/reject`).
 */
export class SandboxRegistrar implements RegistrarPort {
  constructor(private readonly db: Db) {}

  async submitBrokerChange(submission: BrokerChangeSubmission): Promise<RegistrarReceipt> {
    await insertRecordOnce(this.db, {
      kind: "BROKER_CHANGE",
      reference: submission.id,
      status: "PENDING",
      remark: "SANDBOX: RECEIVED BY THE REGISTRAR",
      payload: maskedSubmission(submission),
    });
    return { reference: `SBX-${submission.id}` };
  }
}

/**
 * Production: CAMS and KFintech offer no API for a change of broker (it goes on paper or through their
 * own portals), so the hand-over is a log line (masked) for the operations team, who file it and record
 * the registrar's outcome. No reference until then.
 */
export class ManualRegistrar implements RegistrarPort {
  constructor(private readonly logger: Logger) {}

  async submitBrokerChange(submission: BrokerChangeSubmission): Promise<RegistrarReceipt> {
    this.logger.info({ broker_change: maskedSubmission(submission) }, "broker change awaits manual filing with the registrar");
    return { reference: null };
  }
}

export function createRegistrar(config: { env: string }, db: Db, logger: Logger): RegistrarPort {
  return config.env === "production" ? new ManualRegistrar(logger) : new SandboxRegistrar(db);
}
