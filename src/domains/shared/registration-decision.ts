import { invalidState } from "../../platform/lib/errors.js";
import type { RegistrationOutcome } from "../../integrations/exchange/port.js";
import { answer, found, requireState, type SimulationAnswer } from "./simulation.js";

type Decision = "REGISTERED" | "REJECTED";

interface RegistrationDecision<R extends { status: string }> {
  /** "Investor" or "Mandate", for messages. */
  noun: string;
  id: string;
  requested: Decision;
  /** The caller's resource (null when it is not the caller's); read again after a move that found it moved. */
  find: () => Promise<R | null>;
  /** The sandbox exchange's books take the decision, unless they already hold one (auto-registration). */
  decide: (resource: R) => Promise<RegistrationOutcome>;
  /** Applies the exchange's answer as a status sync would (PENDING -> decision, with its event); false when not PENDING. */
  apply: (outcome: RegistrationOutcome) => Promise<boolean>;
}

const verb = (status: string) => status.toLowerCase();

/**
 * A simulated exchange decision on an investor's UCC or a mandate. The registration job may send the same
 * registration to the sandbox exchange at the same moment (right after creation, or with
 * MF_SANDBOX_AUTO_REGISTER) and apply the answer first: a call that ends with the resource in the requested
 * state succeeds ("Investor registered" when this call moved it, "Investor already registered" otherwise);
 * anything else is 409 INVALID_STATE.
 */
export async function decideRegistration<R extends { status: string }>(decision: RegistrationDecision<R>): Promise<SimulationAnswer> {
  const { noun, id, requested } = decision;
  const label = `${noun} ${id}`;
  const done = (already: boolean) => answer(`${noun} ${already ? "already " : ""}${verb(requested)}`, id);
  const resource = found(noun, await decision.find());
  if (resource.status === requested) return done(true);
  requireState(label, resource.status, "PENDING", `one can be ${verb(requested)}`);

  const outcome = await decision.decide(resource);
  if (outcome.status !== requested) {
    // The exchange had decided otherwise before this call (registered on receipt): the service follows it.
    await decision.apply(outcome);
    throw invalidState(`${label} was already ${verb(outcome.status)} by the exchange`);
  }
  if (await decision.apply(outcome)) return done(false);
  const now = found(noun, await decision.find()).status;
  if (now === requested) return done(true);
  throw invalidState(`${label} is ${now}; only a PENDING one can be ${verb(requested)}`);
}
