import type { Child } from "hono/jsx";
import type { ErrorDetail } from "../platform/lib/errors.js";
import type { LinkPaymentOptions, PublicLinkView } from "../domains/order-links/views.js";
import { calendarDate, indiaDateTime, ORDER_TYPE_LABELS, PAYMENT_FAILURE_REASONS, rupees, units } from "./format.js";
import { ErrorPage, Layout } from "./layout.js";
import { PaymentForms, type PaymentProblem } from "./payment-forms.js";
import { linkPagePath, sandboxPaymentPath } from "./return-address.js";
import { FORM_TOKEN_FIELD } from "./security.js";

/** How often the page reloads itself while the exchange has not answered (a meta refresh: no script). */
export const WAITING_REFRESH_SECONDS = 3;

/** Where the link stands, as the page shows it: one component each. */
type Stage = "confirm" | "waiting" | "ended" | "pay" | "paying" | "paid" | "refunded" | "nothing_to_pay";

function stageOf(view: PublicLinkView): Stage {
  if (view.status === "ACTIVE") return "confirm";
  if (view.order_status === "PENDING") return "waiting";
  if (view.order_status === "REJECTED" || view.order_status === "FAILED" || view.order_status === "CANCELLED") return "ended";
  if (view.payment_status === "PAID") return "paid";
  if (view.payment_status === "REFUNDED") return "refunded";
  if (view.payment_status === "NOT_REQUIRED") return "nothing_to_pay";
  if (view.can_pay) return "pay";
  return "paying";
}

const TITLES: Record<Stage, string> = {
  confirm: "Confirm your order",
  waiting: "Waiting for the exchange",
  ended: "This order was not placed",
  pay: "Pay for your order",
  paying: "Payment in progress",
  paid: "Paid",
  refunded: "Payment refunded",
  nothing_to_pay: "Order accepted",
};

export interface LinkPageProps {
  view: PublicLinkView;
  formToken: string;
  /** The investor's accounts and mandates (masked), when the page offers the payment choice. */
  options: LinkPaymentOptions | null;
  /** The sandbox: a pending payment's page is the service's own simulator. */
  sandbox: boolean;
  /** Confirm answered 400: the proposal no longer passes. */
  confirmProblem?: ErrorDetail[] | undefined;
  paymentProblem?: PaymentProblem | undefined;
}

/** `/links/{link_id}`: the proposal, and below it what the investor can do now. */
export function LinkPage(props: LinkPageProps) {
  const { view } = props;
  const stage = stageOf(view);
  return (
    <Layout title={TITLES[stage]} refreshSeconds={stage === "waiting" ? WAITING_REFRESH_SECONDS : undefined}>
      <section class="card" aria-labelledby="title">
        <p class="badge">Order from {view.distributor_name}</p>
        <h1 id="title">{TITLES[stage]}</h1>
        <Proposal view={view} />
        <div id="link-stage" data-stage={stage}>
          <StageBody {...props} stage={stage} />
        </div>
      </section>
    </Layout>
  );
}

function StageBody(props: LinkPageProps & { stage: Stage }) {
  const { view, stage } = props;
  const self = linkPagePath(view.id);
  switch (stage) {
    case "confirm":
      return <ConfirmStage view={view} formToken={props.formToken} problem={props.confirmProblem} />;
    case "waiting":
      return (
        <>
          <Outcome tone="">Your order is confirmed and on its way to the exchange. This page refreshes by itself until the exchange accepts it.</Outcome>
          <RefreshLink href={self} />
        </>
      );
    case "ended":
      return <EndedStage view={view} />;
    case "pay":
      return <PayStage {...props} />;
    case "paying":
      return <PayingStage view={view} sandbox={props.sandbox} />;
    case "paid":
      return (
        <>
          <Outcome tone="good">
            Paid. {view.latest_payment ? `We received ${rupees(view.latest_payment.amount)} by ${view.latest_payment.mode}.` : "We received your payment."}{" "}
            {view.order_status === "ALLOTTED" ? "Your units have been allotted." : "Your units will be allotted by the fund house."}
          </Outcome>
          {view.latest_payment && <p class="muted">Payment reference: {view.latest_payment.id}</p>}
        </>
      );
    case "refunded":
      return <Outcome tone="">The money you paid for this order has been refunded.</Outcome>;
    case "nothing_to_pay":
      return <Outcome tone="good">The exchange accepted your order. There is nothing to pay now.</Outcome>;
  }
}

function ConfirmStage({ view, formToken, problem }: { view: PublicLinkView; formToken: string; problem: ErrorDetail[] | undefined }) {
  return (
    <>
      {problem && (
        <div class="outcome bad" role="alert" id="confirm-problem">
          <p>This order can no longer be placed as proposed:</p>
          <ul>
            {problem.map((d) => (
              <li>{d.path ? `${d.path}: ${d.message}` : d.message}</li>
            ))}
          </ul>
          <p>
            Ask {view.distributor_name} ({view.distributor_arn}) for a new link.
          </p>
        </div>
      )}
      <p>
        By confirming, you ask {view.distributor_name} to place this order for you on the exchange. We record the time of your
        confirmation and the address of your device.
      </p>
      <form method="post" action={`${linkPagePath(view.id)}/confirm`}>
        <input type="hidden" name={FORM_TOKEN_FIELD} value={formToken} />
        <button type="submit">Confirm order</button>
      </form>
    </>
  );
}

const ENDED: Record<string, string> = {
  REJECTED: "The exchange rejected this order.",
  FAILED: "The order could not be placed on the exchange.",
  CANCELLED: "The order was cancelled.",
};

function EndedStage({ view }: { view: PublicLinkView }) {
  const money =
    view.payment_status === "REFUNDED" || view.payment_status === "PAID"
      ? "The money you paid is refunded to your account."
      : "No money was taken for it.";
  return (
    <Outcome tone="bad">
      {ENDED[view.order_status ?? ""] ?? "This order was not placed."} {money} Contact {view.distributor_name} ({view.distributor_arn}) if you still
      want to invest.
    </Outcome>
  );
}

function PayStage({ view, formToken, options, paymentProblem }: LinkPageProps) {
  const failed = view.latest_payment?.status === "FAILED" ? view.latest_payment : null;
  return (
    <>
      {failed && (
        <Outcome tone="bad" id="payment-failed">
          The payment of {rupees(failed.amount)} by {failed.mode} failed. {failed.failure_code ? PAYMENT_FAILURE_REASONS[failed.failure_code] : "It did not go through."}
        </Outcome>
      )}
      <h2>{failed ? "Try again" : "Choose how to pay"}</h2>
      <p>The exchange accepted your order. Pay {rupees(view.amount ?? 0)} to complete it.</p>
      <PaymentForms action={`${linkPagePath(view.id)}/pay`} formToken={formToken} amount={view.amount ?? 0} options={options ?? { bank_accounts: [], mandates: [] }} problem={paymentProblem} />
    </>
  );
}

const PENDING_WORDS: Record<string, string> = {
  UPI: "Finish the payment in your UPI app or on the payment page.",
  NETBANKING: "Finish the payment on your bank's page.",
  MANDATE: "Your bank debits the mandate; this page shows the payment once the money is received.",
  CHEQUE: "This page shows the payment once your cheque clears.",
};

function PayingStage({ view, sandbox }: { view: PublicLinkView; sandbox: boolean }) {
  const payment = view.latest_payment;
  const redirects = payment && (payment.mode === "UPI" || payment.mode === "NETBANKING");
  return (
    <>
      <Outcome tone="">
        {payment ? `Your payment of ${rupees(payment.amount)} by ${payment.mode} is waiting for confirmation. ${PENDING_WORDS[payment.mode]}` : "Your payment is waiting for confirmation."}
      </Outcome>
      <div class="actions">
        {sandbox && payment && redirects && (
          <a class="button" href={sandboxPaymentPath(payment.id)}>
            Continue to payment
          </a>
        )}
        <RefreshLink href={linkPagePath(view.id)} />
      </div>
    </>
  );
}

function Outcome({ tone, id, children }: { tone: "good" | "bad" | ""; id?: string; children?: Child }) {
  return (
    <p class={`outcome ${tone}`.trim()} role="status" {...(id ? { id } : {})}>
      {children}
    </p>
  );
}

function RefreshLink({ href }: { href: string }) {
  return (
    <p>
      <a class="button secondary" href={href}>
        Refresh
      </a>
    </p>
  );
}

/** What was proposed, with the investor masked: the same facts as the public view. */
function Proposal({ view }: { view: PublicLinkView }) {
  const quantity: [string, string] =
    view.amount !== null ? ["Amount", rupees(view.amount)] : view.units !== null ? ["Units", units(view.units)] : ["Units", view.all_units ? "All units" : "-"];
  const plan = view.sip ?? view.stp ?? view.swp;
  const rows: Array<[string, string]> = [
    ["Scheme", view.scheme_name ? `${view.scheme_name} (${view.scheme_code})` : view.scheme_code ?? "The scheme of your SIP"],
    ["Order", ORDER_TYPE_LABELS[view.order_type]],
    quantity,
  ];
  if (view.switch) rows.push(["Switch to", view.switch.to_scheme_code]);
  if (view.stp) rows.push(["Transfer to", view.stp.to_scheme_code]);
  if (view.sip?.sip_order_id) rows.push(["Tops up", view.sip.sip_order_id]);
  if (plan?.frequency) rows.push(["Frequency", plan.frequency.charAt(0) + plan.frequency.slice(1).toLowerCase()]);
  if (plan?.start_date) rows.push(["Starts", calendarDate(plan.start_date)]);
  if (plan?.installments) rows.push(["Instalments", String(plan.installments)]);
  rows.push(["Investor", `${view.investor_name}, PAN ${view.investor_pan}`]);
  rows.push(["Distributor", `${view.distributor_name}, ${view.distributor_arn}`]);
  if (view.status === "ACTIVE") rows.push(["Link expires", indiaDateTime(view.expires_at)]);
  return (
    <dl class="proposal">
      {rows.map(([term, value]) => (
        <>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </>
      ))}
    </dl>
  );
}

/** An EXPIRED or CANCELLED link (sent with 410): nothing can be done with it any more. */
export function LinkGonePage({ view }: { view: PublicLinkView }) {
  const who = `${view.distributor_name} (${view.distributor_arn})`;
  return view.status === "EXPIRED" ? (
    <ErrorPage status={410} title="This link has expired" message={`It expired on ${indiaDateTime(view.expires_at)} and the order was not placed. Ask ${who} for a new link.`} />
  ) : (
    <ErrorPage status={410} title="This link was cancelled" message={`${who} cancelled this order proposal. Nothing was ordered and nothing was paid.`} />
  );
}

/** An id that names no link: the same page whatever the id (never echoed). */
export function UnknownLinkPage() {
  return <ErrorPage status={404} title="This link does not exist" message="Check that you opened the whole address, or ask your distributor to send the link again." />;
}
