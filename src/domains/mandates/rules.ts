import { AppError, invalidState, type ErrorDetail } from "../../platform/lib/errors.js";
import { Decimal } from "../../platform/lib/money.js";
import type { MandateStatus } from "./mandate.states.js";

/**
 * A mandate is made for a REGISTERED investor (409 otherwise), on one of the investor's own bank
 * accounts (400 on `bank_account_id` otherwise).
 */
export function checkMandateHolder(investor: { id: string; status: string; bankAccounts: ReadonlyArray<{ id: string }> }, bankAccountId: string): void {
  if (investor.status !== "REGISTERED") {
    throw invalidState(`Investor ${investor.id} is ${investor.status}; mandates need a REGISTERED investor`);
  }
  if (!investor.bankAccounts.some((account) => account.id === bankAccountId)) {
    throw new AppError("VALIDATION_ERROR", "The bank account is not the investor's", {
      details: [{ path: "bank_account_id", message: `is not a bank account of ${investor.id}: use an id from its bank_accounts`, reason: "bank_account_not_found" }],
    });
  }
}

/** A mandate may not name a bank account whose removal the exchange has not yet decided (400 on `bank_account_id`). */
export function bankAccountBeingRemovedError(): AppError {
  return new AppError("VALIDATION_ERROR", "The bank account is being removed", {
    details: [{
      path: "bank_account_id",
      reason: "rule_violated",
      message: "the bank account is being removed (the investor's change the exchange has not yet decided): use another of its bank_accounts",
    }],
  });
}

/**
 * How each user of a mandate words a mandate it cannot use. The rule is one; the words differ and the
 * API answers them as they are: placing an order "names" a mandate and an amount over its limit is a fault
 * of `amount`; paying a link "chooses" one and the fault is the choice of `mandate_id`.
 */
const WORDS = {
  order: {
    verb: "name",
    overLimit: (_amount: Decimal, limit: Decimal) => ({
      path: "amount",
      message: `exceeds the mandate's limit of ${limit.toFixed(2)}: lower the amount, or use a mandate with a higher limit`,
    }),
  },
  payment: {
    verb: "choose",
    overLimit: (amount: Decimal, limit: Decimal) => ({
      path: "mandate_id",
      message: `the amount ${amount.toFixed(2)} exceeds the mandate's limit of ${limit.toFixed(2)}: choose another mandate or payment mode`,
    }),
  },
} as const;

export type MandateUser = keyof typeof WORDS;

interface MandateFacts {
  investorId: string;
  status: MandateStatus;
  amountLimit: Decimal;
}

/**
 * The mandate-usability rule: a mandate may be debited for an investor when it is that investor's and
 * REGISTERED, and its limit covers the amount (when there is one). `named` is the mandate the request named
 * among the distributor's (null: none). Answers the usable mandate, also when only the amount is over its
 * limit (placement checks its dates too), and the violation, if any, in the words of `user`.
 */
export function mandateUse<M extends MandateFacts>(
  named: M | null,
  investorId: string,
  amount: Decimal.Value | null,
  user: MandateUser,
): { mandate: M; violation: null } | { mandate: M | null; violation: ErrorDetail } {
  const words = WORDS[user];
  const mandate = named?.investorId === investorId ? named : null;
  if (!mandate || mandate.status !== "REGISTERED") {
    const message = mandate
      ? `the mandate is ${mandate.status}: ${words.verb} a REGISTERED mandate of the investor`
      : `is not a mandate of the investor: ${words.verb} one of the investor's REGISTERED mandates`;
    return { mandate: null, violation: { path: "mandate_id", reason: "mandate_not_registered", message } };
  }
  if (amount !== null && mandate.amountLimit.lessThan(amount)) {
    const { path, message } = words.overLimit(new Decimal(amount), mandate.amountLimit);
    return { mandate, violation: { path, reason: "amount_exceeds_mandate_limit", message } };
  }
  return { mandate, violation: null };
}
