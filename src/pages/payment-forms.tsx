import type { Child } from "hono/jsx";
import { AppError, validationError, type ErrorDetail } from "../platform/lib/errors.js";
import { issuesToDetails } from "../platform/lib/zod.js";
import { PaymentChoice, type PaymentChoiceInput } from "../domains/order-links/order-links.schemas.js";
import type { LinkPaymentOptions } from "../domains/order-links/views.js";
import { rupees } from "./format.js";
import { FORM_TOKEN_FIELD } from "./security.js";

/** The fields of the payment forms, as posted (one form per mode, each with a hidden `mode`). */
const FIELDS = ["mode", "vpa", "bank_account_id", "mandate_id", "cheque_number", "cheque_date", "cheque_bank_name"] as const;
export type EnteredChoice = Partial<Record<(typeof FIELDS)[number], string>>;

/** A refused payment form: what was entered (shown again) and the 400 details (beside their fields). */
export interface PaymentProblem {
  entered: EnteredChoice;
  details: ErrorDetail[];
}

/** The payment form's own fields from a posted form (anything else, the form token included, is dropped). */
export function enteredChoice(fields: Record<string, string>): EnteredChoice {
  const entered: EnteredChoice = {};
  for (const name of FIELDS) if (fields[name] !== undefined) entered[name] = fields[name];
  return entered;
}

/**
 * The posted choice as the payment service takes it: only the chosen mode's fields (a field left empty
 * is missing), read by the same schema as the API's pay, so the 400 details are the API's.
 */
export function readChoice(entered: EnteredChoice): PaymentChoiceInput {
  const given = (value: string | undefined) => (value === undefined || value.trim() === "" ? undefined : value.trim());
  const choice: Record<string, unknown> = { mode: entered.mode ?? "" };
  if (entered.mode === "UPI") choice.vpa = given(entered.vpa);
  if (entered.mode === "NETBANKING") choice.bank_account_id = given(entered.bank_account_id);
  if (entered.mode === "MANDATE") choice.mandate_id = given(entered.mandate_id);
  if (entered.mode === "CHEQUE") {
    const cheque = { number: given(entered.cheque_number), date: given(entered.cheque_date), bank_name: given(entered.cheque_bank_name) };
    choice.cheque = Object.fromEntries(Object.entries(cheque).filter(([, value]) => value !== undefined));
  }
  for (const key of Object.keys(choice)) if (choice[key] === undefined) delete choice[key];
  const parsed = PaymentChoice.safeParse(choice);
  if (!parsed.success) throw validationError(issuesToDetails(parsed.error.issues));
  return parsed.data;
}

/** A 400 of the payment service or of `readChoice`: the problem to show on the page; anything else is not one. */
export function paymentProblemOf(error: unknown, entered: EnteredChoice): PaymentProblem | null {
  if (!(error instanceof AppError) || error.appCode !== "VALIDATION_ERROR") return null;
  return { entered, details: error.details ?? [{ path: "", message: error.message, reason: "rule_violated" }] };
}

/** Where each detail path is shown: the id of its input (other paths go above the forms). */
const INPUT_OF_PATH: Record<string, string> = {
  vpa: "vpa",
  bank_account_id: "bank_account_id",
  mandate_id: "mandate_id",
  "cheque.number": "cheque_number",
  "cheque.date": "cheque_date",
  "cheque.bank_name": "cheque_bank_name",
};

const LABELS: Record<string, string> = {
  vpa: "UPI ID",
  bank_account_id: "Bank account",
  mandate_id: "Mandate",
  cheque_number: "Cheque number",
  cheque_date: "Cheque date",
  cheque_bank_name: "Bank name",
};

interface FormsProps {
  action: string;
  formToken: string;
  amount: number;
  options: LinkPaymentOptions;
  problem?: PaymentProblem | undefined;
}

/**
 * One form per mode, each in a `<details>` (opened and closed by the browser itself, no script): UPI
 * open unless another mode's form came back with a problem.
 */
export function PaymentForms({ action, formToken, amount, options, problem }: FormsProps) {
  const errors = new Map<string, string[]>();
  const general: ErrorDetail[] = [];
  for (const detail of problem?.details ?? []) {
    const input = INPUT_OF_PATH[detail.path];
    if (input) errors.set(input, [...(errors.get(input) ?? []), `${LABELS[input]} ${detail.message}`]);
    else general.push(detail);
  }
  const entered = problem?.entered ?? {};
  const openMode = problem && ["UPI", "NETBANKING", "MANDATE", "CHEQUE"].includes(entered.mode ?? "") ? entered.mode : "UPI";
  const form = { action, formToken, errors };
  const pay = (mode: string) => `Pay ${rupees(amount)} by ${mode}`;
  const defaultBank = options.bank_accounts.find((a) => a.is_primary)?.id ?? options.bank_accounts[0]?.id;
  const chosenBank = entered.mode === "NETBANKING" ? entered.bank_account_id : defaultBank;
  const chosenMandate = entered.mode === "MANDATE" ? entered.mandate_id : options.mandates[0]?.id;

  return (
    <div class="payment-forms">
      {problem && (
        <div class="outcome bad" role="alert" id="payment-problem">
          <p>The payment could not be started. Check the details below.</p>
          {general.length > 0 && (
            <ul>
              {general.map((d) => (
                <li>{d.path ? `${d.path}: ${d.message}` : d.message}</li>
              ))}
            </ul>
          )}
        </div>
      )}

      <ModeForm {...form} mode="UPI" title="UPI" open={openMode === "UPI"} button={pay("UPI")}>
        <TextField id="vpa" label="UPI ID" value={entered.mode === "UPI" ? entered.vpa : undefined} errors={errors} hint="Such as name@okhdfc" inputmode="email" />
      </ModeForm>

      {options.bank_accounts.length > 0 && (
        <ModeForm {...form} mode="NETBANKING" title="Net banking" open={openMode === "NETBANKING"} button={pay("net banking")}>
          <Choices
            name="bank_account_id"
            legend="Pay from"
            errors={errors}
            checked={chosenBank}
            items={options.bank_accounts.map((a) => ({ id: a.id, label: `${a.account_type} account ${a.account_number}`, note: `IFSC ${a.ifsc}` }))}
          />
        </ModeForm>
      )}

      {options.mandates.length > 0 && (
        <ModeForm {...form} mode="MANDATE" title="Mandate (auto-debit)" open={openMode === "MANDATE"} button={pay("mandate")}>
          <Choices
            name="mandate_id"
            legend="Debit the mandate"
            errors={errors}
            checked={chosenMandate}
            items={options.mandates.map((m) => ({ id: m.id, label: `Up to ${rupees(m.amount_limit)} from account ${m.bank_account_number}`, note: m.id }))}
          />
        </ModeForm>
      )}

      <ModeForm {...form} mode="CHEQUE" title="Cheque" open={openMode === "CHEQUE"} button={`Pay ${rupees(amount)} by cheque`}>
        <TextField id="cheque_number" label="Cheque number" value={entered.mode === "CHEQUE" ? entered.cheque_number : undefined} errors={errors} inputmode="numeric" />
        <TextField id="cheque_date" label="Cheque date" type="date" value={entered.mode === "CHEQUE" ? entered.cheque_date : undefined} errors={errors} />
        <TextField id="cheque_bank_name" label="Bank name" value={entered.mode === "CHEQUE" ? entered.cheque_bank_name : undefined} errors={errors} />
      </ModeForm>
    </div>
  );
}

function ModeForm(props: { action: string; formToken: string; mode: string; title: string; open: boolean; button: string; children?: Child }) {
  return (
    <details class="mode" open={props.open}>
      <summary>{props.title}</summary>
      <form method="post" action={props.action} id={`pay-${props.mode.toLowerCase()}`}>
        <input type="hidden" name={FORM_TOKEN_FIELD} value={props.formToken} />
        <input type="hidden" name="mode" value={props.mode} />
        {props.children}
        <button type="submit">{props.button}</button>
      </form>
    </details>
  );
}

function FieldErrors({ id, errors }: { id: string; errors: Map<string, string[]> }) {
  const messages = errors.get(id);
  if (!messages) return null;
  return (
    <p class="field-error" id={`${id}-error`}>
      {messages.join(". ")}
    </p>
  );
}

function TextField(props: { id: string; label: string; value: string | undefined; errors: Map<string, string[]>; type?: string; hint?: string; inputmode?: "email" | "numeric" }) {
  const invalid = props.errors.has(props.id);
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.hint && <p class="muted hint">{props.hint}</p>}
      <input
        id={props.id}
        name={props.id}
        type={props.type ?? "text"}
        value={props.value ?? ""}
        autocomplete="off"
        {...(props.inputmode ? { inputmode: props.inputmode } : {})}
        {...(invalid ? { "aria-invalid": "true", "aria-describedby": `${props.id}-error` } : {})}
      />
      <FieldErrors id={props.id} errors={props.errors} />
    </div>
  );
}

function Choices(props: { name: string; legend: string; errors: Map<string, string[]>; checked: string | undefined; items: Array<{ id: string; label: string; note: string }> }) {
  return (
    <fieldset class="field">
      <legend>{props.legend}</legend>
      {props.items.map((item) => (
        <label class="choice">
          <input type="radio" name={props.name} value={item.id} checked={item.id === props.checked} />
          <span>
            {item.label} <span class="muted">{item.note}</span>
          </span>
        </label>
      ))}
      <FieldErrors id={props.name} errors={props.errors} />
    </fieldset>
  );
}
