import { z } from "zod";
import { ARN_PATTERN } from "../auth/rules.js";
import { ClientRef } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { ClientRefView, CreatedAt, InvestorIdView, PathId, state, stateFilter, UpdatedAt } from "../shared/fields.schemas.js";
import { BROKER_CHANGE_STATUSES } from "./broker-change.states.js";
import { AUTH_MODES, DOCUMENT_CONTENT_TYPES, TWO_FA_CHANNELS } from "../../integrations/registrars/port.js";
import { authModeIssues } from "./rules.js";

export const BrokerChangeStatus = z.enum(BROKER_CHANGE_STATUSES);

/**
 * A folio number as the registrars print them: CAMS `1234567/89`, KFintech digits, some AMCs letters;
 * 1-20 letters, digits, `/` or `-`, starting with a letter or digit.
 */
export const FOLIO_PATTERN = /^[A-Z0-9][A-Z0-9/-]{0,19}$/;

const code = (pattern: RegExp, message: string) => z.string().trim().toUpperCase().regex(pattern, message);

export const CreateBrokerChangeRequest = z
  .strictObject({
    investor_id: z.string().min(1).max(64).describe("One of your investors: the folio's holder (its PAN is the one the registrar checks)."),
    amc_code: z.string().trim().toUpperCase().min(1).max(64).describe("The folio's AMC: an `amc_code` of the scheme master (GET /api/masters/v1/schemes)."),
    folio_no: code(FOLIO_PATTERN, "must be a folio number: 1-20 letters, digits, '/' or '-', starting with a letter or digit").describe(
      "The existing folio to bring under your ARN.",
    ),
    auth_mode: z
      .enum(AUTH_MODES)
      .describe("WET_SIGNATURE: upload the investor's signed form (POST .../{id}/image). TWO_FA: the registrar confirms with the investor."),
    two_fa_channel: z.enum(TWO_FA_CHANNELS).optional().describe("Required for TWO_FA (where the registrar reaches the investor); refused for WET_SIGNATURE."),
    client_ref: ClientRef.optional(),
    euin: code(/^E\d{6}$/, "must be an EUIN: E followed by 6 digits").optional().describe("The employee's EUIN: `E` + 6 digits."),
    sub_broker_code: code(ARN_PATTERN, "must be ARN- followed by digits").optional().describe("A sub-broker's ARN (`ARN-` + digits)."),
    ria_code: code(/^INA\d{9}$/, "must be an RIA registration: INA followed by 9 digits").optional().describe("An investment adviser's SEBI registration: `INA` + 9 digits."),
  })
  .superRefine((input, ctx) => {
    for (const issue of authModeIssues(input)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message, params: { reason: issue.reason } });
  });
export type CreateBrokerChangeInput = z.infer<typeof CreateBrokerChangeRequest>;

export const BrokerChangeDocument = z
  .object({
    content_type: z.enum(DOCUMENT_CONTENT_TYPES).describe("As judged by the file's bytes."),
    size: z.number().int().describe("Bytes."),
    sha256: z.string().describe("Hex SHA-256 of the stored bytes."),
    uploaded_at: z.string().describe("When the signed form was uploaded (ISO 8601, UTC)."),
  })
  .nullable()
  .describe("The signed form once uploaded (GET .../{id}/image returns it); null before, and for TWO_FA.");

export const BrokerChangeView = z.object({
  id: z.string().describe("`bcr_` + a time-ordered id."),
  investor_id: InvestorIdView,
  pan: z.string().describe("The investor's PAN, masked."),
  amc_code: z.string().describe("The fund house's code in the scheme master."),
  folio_no: z.string().describe("The folio: the investor's account with the fund house."),
  auth_mode: z.enum(AUTH_MODES).describe("How the investor authorises the change: WET_SIGNATURE (a signed form) or TWO_FA."),
  status: BrokerChangeStatus.describe(
    "WET_SIGNATURE: PENDING_DOCUMENT -> SUBMITTED (form uploaded); TWO_FA: SUBMITTED at creation; SUBMITTED -> REJECTED by the registrar.",
  ),
  broker_code: z.string().describe("Your ARN: the broker the folio moves to."),
  client_ref: ClientRefView,
  // Described as an order's `euin` (as the reference has always said it).
  euin: describeAfter(z.string().nullable(), "The employee's EUIN, or the execution-only declaration."),
  sub_broker_code: describeAfter(z.string().nullable(), "A sub-broker's ARN (`ARN-` + digits)."),
  ria_code: describeAfter(z.string().nullable(), "An investment adviser's SEBI registration: `INA` + 9 digits."),
  two_fa_channel: z.enum(TWO_FA_CHANNELS).nullable().describe("Where the registrar reaches the investor for TWO_FA: EMAIL or SMS."),
  provider_remark: z.string().nullable().describe("The registrar's remark (PANs masked)."),
  document: BrokerChangeDocument,
  created_at: CreatedAt,
  updated_at: UpdatedAt,
});

export const BrokerChangeIdInput = z.strictObject({ id: PathId });

export const ListBrokerChangesQuery = z.strictObject({
  status: stateFilter(BrokerChangeStatus),
  investor_id: z.string().min(1).max(64).optional().describe("Only this investor's."),
  limit: Limit(100, 20),
  cursor: Cursor,
});

export const BrokerChangePage = z.object({
  data: z.array(BrokerChangeView).describe("Your broker change requests on this page, newest first."),
  next_cursor: NextCursor,
});
