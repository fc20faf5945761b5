import type { Db, Tx } from "../../platform/db/client.js";
import { recordEvent } from "../events/events.repo.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import type { AuthMode } from "../../integrations/registrars/port.js";
import type { BrokerChangeStatus } from "./broker-change.states.js";
import * as repo from "./broker-changes.repo.js";
import type { BrokerChangeRow } from "./broker-changes.repo.js";

/**
 * A broker change request's status, each move with its event in the transaction that makes it:
 *   created PENDING_DOCUMENT (WET_SIGNATURE), or SUBMITTED (TWO_FA: broker_change.submitted and the registrar job)
 *   PENDING_DOCUMENT -> SUBMITTED   its signed form stored (broker_change.submitted and the registrar job)
 *   SUBMITTED -> REJECTED           the registrar refuses it (broker_change.rejected)
 */

/** The status a new request starts in: TWO_FA is submitted at once, WET_SIGNATURE waits for its signed form. */
export function statusAtCreation(authMode: AuthMode): BrokerChangeStatus {
  return authMode === "TWO_FA" ? "SUBMITTED" : "PENDING_DOCUMENT";
}

/** In the transaction that creates a request: the event and job of one created SUBMITTED. */
export async function recordCreated(tx: Tx, row: BrokerChangeRow): Promise<void> {
  if (row.status === "SUBMITTED") await recordSubmitted(tx, row);
}

/**
 * PENDING_DOCUMENT -> SUBMITTED, in the transaction that stores the signed form and holds the request's row
 * lock (the caller checked the state under it); answers the request as submitted.
 */
export async function submitWithSignedForm(tx: Tx, id: string): Promise<BrokerChangeRow> {
  if (!(await repo.moveStatus(tx, id, "PENDING_DOCUMENT", { status: "SUBMITTED" }))) {
    throw new Error("A locked PENDING_DOCUMENT broker change request could not be submitted");
  }
  const submitted = await repo.findBrokerChangeById(tx, id);
  if (!submitted) throw new Error(`Broker change request ${id} vanished inside its transaction`);
  await recordSubmitted(tx, submitted);
  return submitted;
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

/** A request's event on becoming SUBMITTED, and the job that hands it to the registrar. */
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
