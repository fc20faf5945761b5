import { z } from "zod";
import type { Hono } from "hono";
import type { Services } from "../domains/shared/services.js";
import type { SandboxExchange } from "../integrations/exchange/sandbox/sandbox-exchange.js";
import { AppError, notFound, validationError } from "../platform/lib/errors.js";
import { sandboxPayment, simulatePaymentById } from "../domains/payments/payments.simulation.js";
import { DEFAULT_FAILURE_CODE, type PaymentMove } from "../domains/payments/lifecycle.js";
import { toPaymentView, type PaymentView } from "../domains/payments/views.js";
import { PAYMENT_FAILURE_CODES, type PaymentFailureCode } from "../integrations/exchange/outcomes.js";
import { PAYMENT_FAILURE_REASONS, rupees } from "./format.js";
import { Layout } from "./layout.js";
import { renderError, renderPage, type PagesEnv } from "./render.js";
import { returnAddressOf, sandboxPaymentPath } from "./return-address.js";
import { FORM_TOKEN_FIELD, formTokenFor, readProtectedForm } from "./security.js";

const OUTCOMES: Record<string, { text: string; tone: "good" | "bad" | "" }> = {
  CAPTURED: { text: "Payment received.", tone: "good" },
  FAILED: { text: "The payment failed.", tone: "bad" },
  REFUNDED: { text: "The payment was refunded.", tone: "" },
};

const FailureCode = z.enum(PAYMENT_FAILURE_CODES);

/** The posted reason, one of the closed list; anything else is a 400 naming the field. */
function failureCodeOf(form: Record<string, string>): PaymentFailureCode | undefined {
  const code = form.failure_code;
  if (code === undefined) return undefined;
  const known = FailureCode.safeParse(code);
  if (known.success) return known.data;
  const message = `must be one of ${PAYMENT_FAILURE_CODES.join(", ")}`;
  throw validationError([{ path: "failure_code", reason: "invalid_value", message }], `failure_code ${message}`);
}

/** The mode's own detail: what the investor pays from (already masked where personal). */
function paidFrom(payment: PaymentView): [string, string] | null {
  if (payment.vpa) return ["UPI ID", payment.vpa];
  if (payment.bank_account_id) return ["Bank account", payment.bank_account_id];
  if (payment.mandate_id) return ["Mandate", payment.mandate_id];
  return null;
}

/** The sandbox payment gateway's page: the payment, and while it is PENDING, Pay and Fail. */
export function PaymentSimulatorPage({ payment, formToken }: { payment: PaymentView; formToken: string }) {
  const from = paidFrom(payment);
  const outcome = OUTCOMES[payment.status];
  const action = (move: string) => `${sandboxPaymentPath(payment.id)}/${move}`;
  return (
    <Layout title="Sandbox payment">
      <section class="card" aria-labelledby="title">
        <p class="badge">Sandbox payment gateway</p>
        <h1 id="title">Payment</h1>
        <p class="amount">{rupees(payment.amount)}</p>
        <dl>
          <dt>Mode</dt>
          <dd>{payment.mode}</dd>
          {from && (
            <>
              <dt>{from[0]}</dt>
              <dd>{from[1]}</dd>
            </>
          )}
          <dt>Status</dt>
          <dd id="payment-status">{payment.status}</dd>
          <dt>Reference</dt>
          <dd>{payment.id}</dd>
        </dl>
        {outcome ? (
          <p class={`outcome ${outcome.tone}`} role="status">
            {outcome.text} {payment.provider_remark}
          </p>
        ) : (
          <div class="actions">
            <form method="post" action={action("pay")}>
              <input type="hidden" name={FORM_TOKEN_FIELD} value={formToken} />
              <button type="submit">Pay</button>
            </form>
            <form method="post" action={action("fail")}>
              <input type="hidden" name={FORM_TOKEN_FIELD} value={formToken} />
              <label for="failure_code">Reason</label>
              <select id="failure_code" name="failure_code">
                {PAYMENT_FAILURE_CODES.map((code) => (
                  <option value={code} selected={code === DEFAULT_FAILURE_CODE}>
                    {PAYMENT_FAILURE_REASONS[code]}
                  </option>
                ))}
              </select>
              <button type="submit" class="secondary">Fail</button>
            </form>
          </div>
        )}
      </section>
    </Layout>
  );
}

/**
 * `/sandbox/payments/{payment_id}`: the page `payment_url` points to in the sandbox. Pay and Fail move the
 * payment as the simulation endpoints do, then send the investor back (POST, redirect, GET). In production
 * every path answers the not-found page.
 */
export function mountSandboxPayments(pages: Hono<PagesEnv>, services: Services): void {
  const sandbox = (): Services & { sandboxExchange: SandboxExchange } => {
    if (services.config.env !== "sandbox" || !services.sandboxExchange) throw notFound("Page");
    return { ...services, sandboxExchange: services.sandboxExchange };
  };
  const base = services.config.publicBaseUrl;

  pages.get("/sandbox/payments/:id", async (c) => {
    const id = c.req.param("id");
    const payment = await sandboxPayment(sandbox(), id);
    if (!payment) throw notFound("Payment");
    const formToken = formTokenFor(c, services.cipher, payment.id, base);
    return renderPage(c, <PaymentSimulatorPage payment={toPaymentView(payment)} formToken={formToken} />);
  });

  const moves: Record<string, PaymentMove> = { pay: "CAPTURED", fail: "FAILED" };
  for (const [action, to] of Object.entries(moves)) {
    pages.post(`/sandbox/payments/:id/${action}`, async (c) => {
      const id = c.req.param("id");
      const services = sandbox();
      const form = await readProtectedForm(c, services.cipher, id, base);
      try {
        const payment = await simulatePaymentById(services, id, to, to === "FAILED" ? failureCodeOf(form) : undefined);
        return c.redirect(await returnAddressOf(services, payment), 303);
      } catch (error) {
        // A second click, or a page left open while the gateway moved the payment: say so, and lead back.
        if (error instanceof AppError && error.appCode === "INVALID_STATE") return renderError(c, error, { href: sandboxPaymentPath(id), label: "Back to the payment" });
        throw error;
      }
    });
  }
}
