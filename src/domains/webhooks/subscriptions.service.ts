import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { notFound } from "../../platform/lib/errors.js";
import { newId, newSecret } from "../../platform/lib/ids.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
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
  const rows = await repo.activeSubscriptions(services.prisma, caller.distributorId);
  return { success: true as const, data: rows.map(toSubscriptionView) };
}

/** Deletes a subscription: no new deliveries; its pending ones end FAILED when their turn comes. */
export async function deleteSubscription(services: Services, caller: Caller, id: string) {
  if (!(await unsubscribe(services.prisma, caller.distributorId, id))) throw notFound("Webhook subscription");
  const row = await repo.getSubscriptionById(services.prisma, id);
  return { success: true as const, data: { ...toSubscriptionView(row), deleted: true as const } };
}
