import { invalidState, type DetailReason, type ErrorDetail } from "../../platform/lib/errors.js";
import type { AuthMode, TwoFaChannel } from "../../integrations/registrars/port.js";
import type { BrokerChangeRow } from "./broker-changes.repo.js";

/** A broker change request's rules beyond the shape of a request (broker-changes.schemas.ts checks the shape). */

/** A violated rule of a request's fields: the path, a closed reason code, and a sentence. */
export interface RuleIssue {
  path: Array<string | number>;
  reason: DetailReason;
  message: string;
}

/** TWO_FA needs the channel the registrar reaches the investor on; WET_SIGNATURE takes none. */
export function authModeIssues(request: { auth_mode: AuthMode; two_fa_channel?: TwoFaChannel | undefined }): RuleIssue[] {
  if (request.auth_mode === "TWO_FA" && request.two_fa_channel === undefined) {
    return [{ path: ["two_fa_channel"], reason: "required", message: "is required for TWO_FA" }];
  }
  if (request.auth_mode === "WET_SIGNATURE" && request.two_fa_channel !== undefined) {
    return [{ path: ["two_fa_channel"], reason: "field_not_allowed", message: "is not used by WET_SIGNATURE" }];
  }
  return [];
}

/** The folio's holder must be one of the caller's investors, and its AMC one of the scheme master (400 on the field). */
export function referenceIssues(found: { investor: boolean; amc: boolean }, amcCode: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (!found.investor) details.push({ path: "investor_id", reason: "investor_not_found", message: `is not one of your investors` });
  if (!found.amc) {
    details.push({ path: "amc_code", reason: "amc_not_found", message: `no AMC ${amcCode} in the scheme master: use an amc_code of GET /api/masters/v1/schemes` });
  }
  return details;
}

/** 409 INVALID_STATE unless the request takes a signed form: WET_SIGNATURE, still PENDING_DOCUMENT. */
export function requireAwaitingForm(row: BrokerChangeRow): void {
  if (row.authMode !== "WET_SIGNATURE") {
    throw invalidState(`Broker change request ${row.id} is ${row.authMode}; only a WET_SIGNATURE request takes a signed form`);
  }
  if (row.status !== "PENDING_DOCUMENT") {
    throw invalidState(`Broker change request ${row.id} is ${row.status}; only a PENDING_DOCUMENT request takes a signed form`);
  }
}
