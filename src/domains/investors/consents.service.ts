import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { invalidState, notFound } from "../../platform/lib/errors.js";
import { newId, newSecretId } from "../../platform/lib/ids.js";
import { maskName, maskPan } from "../../platform/lib/mask.js";
import { recordEvent } from "../events/events.repo.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import type { Tx } from "../../platform/db/client.js";
import { DEFAULT_EXPIRY_HOURS } from "../order-links/order-links.schemas.js";
import { baseUrl } from "../order-links/views.js";
import * as changes from "./changes.repo.js";
import * as consents from "./consents.repo.js";
import type { ConsentRow } from "./consents.repo.js";
import { nominationStatusOf, type ConsentLinkStatus } from "./consent.states.js";
import * as repo from "./investors.repo.js";
import type { InvestorRow } from "./investors.repo.js";
import { decryptDetails } from "./investors.service.js";
import { DECLARATION_VERSION } from "./nomination-declaration.js";

const SCOPE_CREATE = "POST /api/investors/v1/{id}/nomination-opt-out";
const HOUR_MS = 3_600_000;
/** The user agent is evidence, not a blob: kept up to this length (as an order link's consent). */
const USER_AGENT_MAX = 512;

/** The consent page for the investor (src/pages/consent-page.tsx). */
export const consentPagePath = (id: string) => `/consents/${encodeURIComponent(id)}`;

/** A PENDING link past `expires_at` is EXPIRED, whether or not a read has moved it yet. */
const statusAt = (consent: ConsentRow, now: Date): ConsentLinkStatus => (consent.status === "PENDING" && consent.expiresAt <= now ? "EXPIRED" : consent.status);

export type ConsentView = ReturnType<typeof toConsentView>;

export function toConsentView(consent: ConsentRow, base: string, now: Date) {
  return {
    id: consent.id,
    investor_id: consent.investorId,
    status: statusAt(consent, now),
    url: `${base}${consentPagePath(consent.id)}`,
    expires_at: consent.expiresAt.toISOString(),
    confirmed_at: consent.confirmedAt?.toISOString() ?? null,
    declaration_version: consent.declarationVersion,
    created_at: consent.createdAt.toISOString(),
  };
}

/** Why an investor cannot opt out now (null when it can): nominees, an opt-out already, a refusal or a change in flight. */
async function optOutRefusal(services: Services, tx: Tx, investor: InvestorRow): Promise<string | null> {
  if (investor.status === "REJECTED") return `Investor ${investor.id} is REJECTED; a nomination opt-out needs a PENDING or REGISTERED investor`;
  const nomination = investor.nominationStatus ?? nominationStatusOf(null, decryptDetails(services.cipher, investor).nominees.length);
  if (nomination === "NOMINATED") return `Investor ${investor.id} has nominees; remove them first (PATCH nominees: []), then opt out`;
  if (nomination === "OPTED_OUT") return `Investor ${investor.id} has opted out of nomination already`;
  const pending = await changes.latestChange(tx, investor.id);
  if (pending?.status === "PENDING") return `Investor ${investor.id} has a change the exchange has not yet decided (${pending.id}); opt out after it`;
  return null;
}

/** Creates a PENDING consent link for the investor's nomination opt-out: 201 with its `url` for the investor. */
export async function createOptOut(
  services: Services,
  caller: Caller,
  investorId: string,
  options: { idempotencyKey?: string | undefined; origin?: string | undefined },
): Promise<Stored<ConsentView>> {
  const base = baseUrl(services, options.origin);
  const request = { distributorId: caller.distributorId, scope: SCOPE_CREATE, key: options.idempotencyKey, body: { id: investorId } };
  return idempotent(services.prisma, request, async (tx) => {
    if (!(await repo.findInvestor(tx, caller.distributorId, investorId))) throw notFound("Investor");
    await changes.lockInvestor(tx, investorId);
    const investor = (await repo.findInvestor(tx, caller.distributorId, investorId))!;
    const refusal = await optOutRefusal(services, tx, investor);
    if (refusal) throw invalidState(refusal);
    const now = new Date();
    const consent = await consents.insertConsent(tx, {
      id: newSecretId("cns"),
      distributorId: caller.distributorId,
      investorId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + DEFAULT_EXPIRY_HOURS * HOUR_MS),
    });
    return { status: 201, body: toConsentView(consent, base, now) };
  });
}

export async function getOptOut(services: Services, caller: Caller, investorId: string, consentId: string, origin?: string): Promise<ConsentView> {
  const consent = await consents.findConsent(services.prisma, caller.distributorId, investorId, consentId);
  if (!consent) throw notFound("Consent link");
  return toConsentView(consent, baseUrl(services, origin), new Date());
}

/** What the consent page shows: the link as it stands and whose it is, masked. */
export async function consentPageFacts(services: Services, consentId: string) {
  const consent = await consents.findConsentById(services.prisma, consentId);
  if (!consent) throw notFound("Consent link");
  const now = new Date();
  if (statusAt(consent, now) === "EXPIRED" && consent.status === "PENDING") await consents.expireDue(services.prisma, consent.id, now);
  const investor = (await repo.findInvestorById(services.prisma, consent.investorId))!;
  const holder = decryptDetails(services.cipher, investor).primary_holder;
  return {
    id: consent.id,
    status: statusAt(consent, now),
    expiresAt: consent.expiresAt,
    confirmedAt: consent.confirmedAt,
    investor: { name: maskName(holder.name), pan: maskPan(holder.pan) },
  };
}

/**
 * The investor confirms the declaration: the evidence is kept on the link (CONFIRMED). A PENDING investor
 * is OPTED_OUT at once (investor.updated, fields [nomination], change_id the consent's id); a REGISTERED
 * one gets a pending change with the `nomination` field, sent to the exchange as a UCC modification, and is
 * OPTED_OUT when the exchange applies it (change-lifecycle.ts). A repeat of a confirmed link does nothing.
 */
export async function confirmOptOut(services: Services, consentId: string, client: { ip: string; userAgent: string | undefined }): Promise<void> {
  await services.prisma.$transaction(async (tx) => {
    const found = await consents.findConsentById(tx, consentId);
    if (!found) throw notFound("Consent link");
    await changes.lockInvestor(tx, found.investorId);
    const consent = (await consents.lockConsent(tx, consentId))!;
    const now = new Date();
    const status = statusAt(consent, now);
    if (status === "CONFIRMED") return;
    if (status === "EXPIRED") throw invalidState("This consent link has expired; ask your distributor for a new one");
    const investor = (await repo.findInvestorById(tx, consent.investorId))!;
    const refusal = await optOutRefusal(services, tx, investor);
    if (refusal) throw invalidState(refusal.replace(`Investor ${investor.id}`, "The investor"));
    const evidence = {
      confirmedAt: now,
      confirmIp: client.ip,
      confirmUserAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      declarationVersion: DECLARATION_VERSION,
    };
    if (!(await consents.confirmPending(tx, consent.id, evidence))) throw new Error("A locked PENDING consent link could not be confirmed");
    const about = { distributorId: consent.distributorId, resourceType: "investor", resourceId: investor.id } as const;
    if (investor.status === "PENDING") {
      await consents.setOptedOut(tx, investor.id, { id: consent.id, confirmedAt: now });
      await recordEvent(tx, { ...about, event: "investor.updated", data: { investor_id: investor.id, change_id: consent.id, fields: ["nomination"] } });
      return;
    }
    const values = { nomination: { opted_out: true, consent_id: consent.id } };
    const change = await changes.insertChange(tx, {
      id: newId("ich"),
      distributorId: consent.distributorId,
      investorId: investor.id,
      fields: ["nomination"],
      valuesEncrypted: services.cipher.encrypt(JSON.stringify(values)),
    });
    await enqueue(tx, "investors__send_change", { change_id: change.id }, { jobKey: `investors__send_change:${change.id}` });
  });
}
