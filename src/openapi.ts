import { resolve } from "node:path";
import type { AnyRouter } from "@trpc/server";
import type { OpenAPIObject } from "trpc-to-openapi";
import { ErrorEnvelope } from "./platform/lib/zod.js";
import { buildDocument, operationDocs } from "./platform/openapi/document.js";
import type { OperationDocs } from "./platform/openapi/docs.js";
import { AUTH_TAG } from "./domains/auth/auth.router.js";
import { BROKER_CHANGES_TAG } from "./domains/broker-changes/broker-changes.router.js";
import { SIGNED_FORM_OPERATIONS } from "./domains/broker-changes/signed-form.docs.js";
import { EVENTS_TAG } from "./domains/events/events.router.js";
import { HOLDINGS_TAG } from "./domains/holdings/holdings.router.js";
import { INVESTORS_TAG } from "./domains/investors/investors.router.js";
import { MANDATES_TAG } from "./domains/mandates/mandates.router.js";
import { MASTERS_TAG } from "./domains/masters/masters.router.js";
import { ORDER_LINKS_TAG } from "./domains/order-links/order-links.router.js";
import { PUBLIC_LINKS_TAG } from "./domains/order-links/public-links.router.js";
import { ORDERS_TAG } from "./domains/orders/orders.router.js";
import { PAYMENTS_TAG } from "./domains/payments/payments.router.js";
import { EXAMPLES_NOTE } from "./domains/shared/docs.js";
import { RECONCILIATIONS_TAG } from "./domains/reconciliations/reconciliations.router.js";
import { SIMULATION_TAG } from "./domains/simulation/simulation.router.js";
import { WEBHOOKS_TAG } from "./domains/webhooks/webhooks.router.js";
import { appRouter } from "./router.js";

/**
 * The OpenAPI document of the REST interface, from the routers: each procedure's meta describes its
 * operation (src/platform/openapi/docs.ts), its schemas their fields; the signed form's upload and
 * download, served outside the procedures, are described beside them.
 */
export function buildOpenApiDocument(appRouter: AnyRouter): OpenAPIObject {
  return buildDocument(appRouter, {
    info: {
      title: "Mutual fund distribution service",
      description:
        "REST interface for mutual fund distributors (ARN holders): holdings, orders, public order links, " +
        "investor onboarding, mandates, webhooks and sandbox simulation. Errors use the envelope " +
        "`{success: false, error: {code, message, details?}, request_id}`; every response carries X-Request-Id. " +
        EXAMPLES_NOTE,
      version: "1.0.0",
      baseUrl: "/",
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "Opaque access token from POST /api/auth/v1/token (client credentials), valid 3600 s.",
        },
      },
      defs: { ErrorEnvelope },
    },
    tags: [
      AUTH_TAG, MASTERS_TAG, INVESTORS_TAG, MANDATES_TAG, ORDERS_TAG, PAYMENTS_TAG, HOLDINGS_TAG,
      ORDER_LINKS_TAG, PUBLIC_LINKS_TAG, BROKER_CHANGES_TAG, WEBHOOKS_TAG, EVENTS_TAG, RECONCILIATIONS_TAG, SIMULATION_TAG,
    ],
    sharedErrors: {
      BadRequest:
        "The request is not valid (VALIDATION_ERROR): `error.details` names each failing field (`path`) with a closed `reason` " +
        "and what it must be (`message`). Fix those fields and send the request again.",
      Unauthorized:
        "No valid bearer token (UNAUTHORIZED): get one from POST /api/auth/v1/token (tokens last 3600 s) and send it as " +
        "`Authorization: Bearer <token>`.",
      PayloadTooLarge: "The body is larger than 1 MB (PAYLOAD_TOO_LARGE): send a smaller body.",
      UnsupportedMediaType: "The body is not JSON (UNSUPPORTED_MEDIA_TYPE): send it with `Content-Type: application/json`.",
      RateLimited: "The request budget is spent (RATE_LIMITED): wait `Retry-After` seconds, then retry.",
      Internal: "The service failed (INTERNAL): retry later; quote `request_id` if it persists.",
      Unavailable: "The service is busy, no database connection became free in time (UNAVAILABLE): retry after `Retry-After` seconds.",
    },
    pathIdNotFound: "The id in the path is unknown or another distributor's (NOT_FOUND): check the id, and that the token is the right distributor's.",
    handWritten: SIGNED_FORM_OPERATIONS,
  });
}

/** What the document says of each operation, by operationId. */
export function documentedOperations(): Map<string, OperationDocs | undefined> {
  return operationDocs(appRouter, SIGNED_FORM_OPERATIONS);
}

/** The committed document at the top of the repository. */
export const OPENAPI_FILE = resolve(import.meta.dirname, "..", "openapi.json");

export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(appRouter), null, 2)}\n`;
}
