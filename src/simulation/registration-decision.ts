import type { RegistrationOutcome } from "../exchange/port.js";
import { invalidState } from "../lib/errors.js";

type Decision = "REGISTERED" | "REJECTED";

interface RegistrationDecision {
  /** "Investor inv_..." or "Mandate mdt_...", for messages. */
  what: string;
  /** The resource's status when the call arrived. */
  status: string;
  requested: Decision;
  /** The sandbox exchange's books take the decision, unless they already hold one (auto-registration). */
  decide: () => Promise<RegistrationOutcome>;
  /** Applies the exchange's answer as a status sync would (PENDING -> decision, with its event); false when not PENDING. */
  apply: (outcome: RegistrationOutcome) => Promise<boolean>;
  /** The resource's status now. */
  statusNow: () => Promise<string>;
}

const verb = (status: string) => status.toLowerCase();

/**
 * A simulated exchange decision on an investor's UCC or a mandate. The registration job may send the same
 * registration to the sandbox exchange at the same moment (right after creation, or with
 * MF_SANDBOX_AUTO_REGISTER) and apply the answer first: a call that ends with the resource in the requested
 * state succeeds ("moved" when this call moved it, "already" otherwise); anything else is 409 INVALID_STATE.
 */
export async function decideRegistration(decision: RegistrationDecision): Promise<"moved" | "already"> {
  const { what, status, requested } = decision;
  if (status === requested) return "already";
  if (status !== "PENDING") throw invalidState(`${what} is ${status}; only a PENDING one can be ${verb(requested)}`);

  const outcome = await decision.decide();
  if (outcome.status !== requested) {
    // The exchange had decided otherwise before this call (registered on receipt): the service follows it.
    await decision.apply(outcome);
    throw invalidState(`${what} was already ${verb(outcome.status)} by the exchange`);
  }
  if (await decision.apply(outcome)) return "moved";
  const now = await decision.statusNow();
  if (now === requested) return "already";
  throw invalidState(`${what} is ${now}; only a PENDING one can be ${verb(requested)}`);
}
