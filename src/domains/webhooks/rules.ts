import { validationError } from "../../platform/lib/errors.js";
import { checkTarget } from "./public-address.js";

/**
 * The webhooks' rule beyond the shape of a request: a subscription's URL must pass the public-address check
 * (public-address.ts, target-port-number.ts) when it is subscribed; attempts.ts checks it again before each
 * batch of attempts, and a refusal there fails the delivery (lifecycle.ts).
 */

/** The URL as checked, or 400 on `url` with the check's reason. */
export async function requirePublicTarget(url: string, options: Parameters<typeof checkTarget>[1]): Promise<URL> {
  const target = await checkTarget(url, options);
  if (!target.ok) throw validationError([{ path: "url", message: target.reason, reason: "target_not_allowed" }]);
  return target.url;
}
