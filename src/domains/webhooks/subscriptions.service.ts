import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { AppError, notFound } from "../../platform/lib/errors.js";
import { newId, newSecret } from "../../platform/lib/ids.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { enable } from "./health.js";
import { unsubscribe } from "./lifecycle.js";
import { requirePublicTarget } from "./rules.js";
import * as repo from "./subscriptions.repo.js";
import { toSubscriptionView } from "./views.js";

const SCOPE_CREATE = "POST /api/webhooks/v1/subscriptions";

/**
 * Subscribes the caller to events at a URL that passes the public-address check now (it is checked
 * again right before every attempt). The secret (256 random bits) is returned once; it is stored encrypted,
 * also inside a kept idempotent response, so a repeat with the same Idempotency-Key can show it again
 * to the same caller while nothing else can read it.
 */
export async function createSubscription(services: Services, caller: Caller, input: { url: string; events: string[] }, idempotencyKey: string | undefined) {
  const url = await requirePublicTarget(input.url, { allowPrivate: services.config.webhooks.allowPrivateTargets, resolve: services.resolveHost });
  const stored: Stored<{ success: true; data: ReturnType<typeof toSubscriptionView> & { secret: string } }> = await idempotent(
    services.prisma,
    { distributorId: caller.distributorId, scope: SCOPE_CREATE, key: idempotencyKey, body: input },
    async (tx) => {
      const held = await repo.countHeldLocked(tx, caller.distributorId);
      const max = services.config.webhooks.maxSubscriptions;
      if (held >= max) {
        throw new AppError("CONFLICT", `You hold ${held} webhook subscriptions (ACTIVE or DISABLED), the most allowed (${max}): delete one first`);
      }
      const secret = newSecret("whsec");
      const row = await repo.insertSubscription(tx, {
        id: newId("whs"),
        distributorId: caller.distributorId,
        url: url.href,
        events: input.events,
        secretEncrypted: services.cipher.encrypt(secret),
      });
      return { status: 201, body: { success: true, data: { ...toSubscriptionView(row), secret: services.cipher.encrypt(secret) } } };
    },
  );
  return { status: stored.status, body: { success: true as const, data: { ...stored.body.data, secret: services.cipher.decrypt(stored.body.data.secret) } } };
}

export async function listSubscriptions(services: Services, caller: Caller) {
  const rows = await repo.heldSubscriptions(services.prisma, caller.distributorId);
  return { success: true as const, data: rows.map(toSubscriptionView) };
}

/** DISABLED -> ACTIVE with its health clock reset (health.ts); an ACTIVE one is answered as it is. */
export async function enableSubscription(services: Services, caller: Caller, id: string) {
  if (!(await repo.findLiveSubscription(services.prisma, caller.distributorId, id))) throw notFound("Webhook subscription");
  await enable(services.prisma, caller.distributorId, id);
  const row = await repo.findLiveSubscription(services.prisma, caller.distributorId, id);
  if (!row) throw notFound("Webhook subscription");
  return { success: true as const, data: toSubscriptionView(row) };
}

/** Deletes a subscription: no new deliveries; its pending ones end FAILED when their turn comes. */
export async function deleteSubscription(services: Services, caller: Caller, id: string) {
  if (!(await unsubscribe(services.prisma, caller.distributorId, id))) throw notFound("Webhook subscription");
  const row = await repo.getSubscriptionById(services.prisma, id);
  return { success: true as const, data: { ...toSubscriptionView(row), deleted: true as const } };
}

const HOUR_MS = 3_600_000;

/**
 * Gives a subscription a new secret (256 random bits, encrypted like the first) and answers it once. The
 * replaced one keeps signing beside it for `expire_previous_in_hours` (0: not at all); an older replaced one
 * still overlapping is dropped, so deliveries carry at most two signatures. A repeat with the same
 * Idempotency-Key within 24 h shows the same secret again to the same caller, but only while it is still the
 * current one: after a later rotation it is 409, and after a deletion 404 (a replaced secret is never shown).
 */
export async function rotateSubscriptionSecret(
  services: Services,
  caller: Caller,
  input: { id: string; expire_previous_in_hours: number },
  idempotencyKey: string | undefined,
) {
  const { id, expire_previous_in_hours: hours } = input;
  let fresh = false;
  const stored: Stored<{ success: true; data: ReturnType<typeof toSubscriptionView> & { secret: string; previous_secret_expires_at: string | null } }> =
    await idempotent(
      services.prisma,
      { distributorId: caller.distributorId, scope: `POST /api/webhooks/v1/subscriptions/${id}/rotate-secret`, key: idempotencyKey, body: { expire_previous_in_hours: hours } },
      async (tx) => {
        const secret = newSecret("whsec");
        const previousExpiresAt = hours === 0 ? null : new Date(Date.now() + hours * HOUR_MS);
        const rotated = await repo.rotateSecret(tx, { distributorId: caller.distributorId, id, secretEncrypted: services.cipher.encrypt(secret), previousExpiresAt });
        if (!rotated) throw notFound("Webhook subscription");
        fresh = true;
        const row = await repo.getSubscriptionById(tx, id);
        const data = { ...toSubscriptionView(row), secret: services.cipher.encrypt(secret), previous_secret_expires_at: previousExpiresAt?.toISOString() ?? null };
        return { status: 200, body: { success: true, data } };
      },
    );
  const secret = services.cipher.decrypt(stored.body.data.secret);
  if (!fresh) {
    const row = await repo.findLiveSubscription(services.prisma, caller.distributorId, id);
    if (!row) throw notFound("Webhook subscription");
    if (services.cipher.decrypt(row.secretEncrypted) !== secret) {
      throw new AppError("CONFLICT", "The secret this Idempotency-Key made has been replaced by a later rotation and is no longer shown: rotate again with a new key");
    }
  }
  return { success: true as const, data: { ...stored.body.data, secret } };
}
