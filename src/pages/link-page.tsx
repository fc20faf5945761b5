import type { Context, Hono } from "hono";
import type { Services } from "../domains/shared/services.js";
import { requestClientAddress } from "../platform/http/client-ip.js";
import { confirmLink, getPublicLink, linkPaymentOptions, linkPaymentPage, payLink } from "../domains/order-links/order-links.service.js";
import type { PublicLinkView } from "../domains/order-links/views.js";
import { Layout } from "./layout.js";
import { LinkGonePage, LinkPage, UnknownLinkPage, type LinkPageProps } from "./link-views.js";
import { enteredChoice, paymentProblemOf, readChoice } from "./payment-forms.js";
import { isCode, renderError, renderPage, type PagesEnv } from "./render.js";
import { linkPagePath } from "./return-address.js";
import { bankTargetOf } from "./bank-form.js";
import { BankFormPage, BankPageUnusable } from "./bank-views.js";
import { BANK_FORM_CSP, formTokenFor, readProtectedForm, spendAddressBudget } from "./security.js";

const gone = (view: PublicLinkView) => view.status === "EXPIRED" || view.status === "CANCELLED";

/**
 * `/links/{link_id}`: the investor's page of an order link. GET shows the proposal and what can be done
 * now; the confirm and pay forms post (form token and origin checked), act through the order-links
 * service as the public API does, and redirect (303). Every request spends one request of the client
 * address's budget, as the public API's paths do (link ids cannot be tried without bound).
 */
export function mountLinkPages(pages: Hono<PagesEnv>, services: Services): void {
  const base = services.config.publicBaseUrl;
  const origin = (c: Context) => new URL(c.req.url).origin;
  const clientIp = (c: Context) => requestClientAddress(c, services.config.trustProxyHops);

  pages.use("/links/*", spendAddressBudget(services));

  /** The page as it stands, with a problem of the form just posted (400) or as a plain GET (200). */
  const show = async (c: Context<PagesEnv>, linkId: string, problem: Pick<LinkPageProps, "confirmProblem" | "paymentProblem"> = {}) => {
    let view: PublicLinkView;
    try {
      view = await getPublicLink(services, linkId);
    } catch (error) {
      if (isCode(error, "NOT_FOUND")) return renderPage(c, <UnknownLinkPage />, 404);
      throw error;
    }
    if (gone(view)) return renderPage(c, <LinkGonePage view={view} />, 410);
    const formToken = formTokenFor(c, services.cipher, view.id, base);
    const options = view.can_pay ? await linkPaymentOptions(services, view.id) : null;
    const page = <LinkPage view={view} formToken={formToken} options={options} sandbox={services.config.env === "sandbox"} {...problem} />;
    return renderPage(c, page, problem.confirmProblem || problem.paymentProblem ? 400 : 200);
  };

  /** A refusal of the service: a link that is gone shows its page (410), a state that moved on the 409 page with a way back. */
  const refusal = async (c: Context<PagesEnv>, linkId: string, error: unknown) => {
    if (isCode(error, "NOT_FOUND")) return renderPage(c, <UnknownLinkPage />, 404);
    if (isCode(error, "INVALID_STATE") || isCode(error, "CONFLICT")) {
      const view = await getPublicLink(services, linkId);
      if (gone(view)) return renderPage(c, <LinkGonePage view={view} />, 410);
      return renderError(c, error, { href: linkPagePath(linkId), label: "Back to your order" });
    }
    throw error;
  };

  pages.get("/links/:id", (c) => show(c, c.req.param("id")));

  /**
   * Production: where `payment_url` sends the investor for UPI and net banking. Until the payment job has
   * the exchange's answer the page waits (reloading itself); then net banking shows our page with the
   * bank's form read out of the exchange's answer (or redirects to the address it answered), UPI the
   * exchange's message; anything else (paid, failed, a mandate) goes back to the link's page.
   */
  pages.get("/links/:id/payment", async (c) => {
    const linkId = c.req.param("id");
    let page;
    try {
      page = await linkPaymentPage(services, linkId);
    } catch (error) {
      if (isCode(error, "NOT_FOUND")) return renderPage(c, <UnknownLinkPage />, 404);
      throw error;
    }
    switch (page.state) {
      case "done":
        return c.redirect(linkPagePath(linkId), 303);
      case "bank_page": {
        // The exchange's HTML is never served from our origin: only its form, on our page (bank-form.ts).
        const target = bankTargetOf(page.html);
        if (target?.kind === "redirect") return c.redirect(target.url, 303);
        if (!target) {
          c.get("log").warn({ link_id: linkId }, "the exchange's bank page holds no single https form; not shown");
          return renderPage(c, <BankPageUnusable linkId={linkId} />, 502);
        }
        c.header("Content-Security-Policy", BANK_FORM_CSP);
        return renderPage(c, <BankFormPage linkId={linkId} form={target.form} />);
      }
      case "waiting":
      case "message":
        return renderPage(
          c,
          <Layout title="Payment in progress" refreshSeconds={page.state === "waiting" ? 2 : 10}>
            <section class="card" aria-labelledby="title">
              <h1 id="title">Payment in progress</h1>
              <p>{page.state === "waiting" ? "Contacting the exchange's payment service..." : page.text}</p>
              <p>
                <a class="button" href={linkPagePath(linkId)}>Back to your order</a>
              </p>
            </section>
          </Layout>,
        );
    }
  });

  pages.post("/links/:id/confirm", async (c) => {
    const linkId = c.req.param("id");
    await readProtectedForm(c, services.cipher, linkId, base);
    try {
      await confirmLink(services, linkId, { ip: clientIp(c), userAgent: c.req.header("user-agent"), origin: origin(c) });
    } catch (error) {
      if (isCode(error, "VALIDATION_ERROR")) return show(c, linkId, { confirmProblem: error.details ?? [{ path: "", message: error.message, reason: "rule_violated" }] });
      return refusal(c, linkId, error);
    }
    return c.redirect(linkPagePath(linkId), 303);
  });

  pages.post("/links/:id/pay", async (c) => {
    const linkId = c.req.param("id");
    const entered = enteredChoice(await readProtectedForm(c, services.cipher, linkId, base));
    let paymentUrl: string | null;
    try {
      paymentUrl = (await payLink(services, linkId, readChoice(entered), { origin: origin(c) })).body.payment_url;
    } catch (error) {
      const paymentProblem = paymentProblemOf(error, entered);
      if (paymentProblem) return show(c, linkId, { paymentProblem });
      return refusal(c, linkId, error);
    }
    // UPI and net banking continue on the payment page; a mandate or cheque payment is followed on the link's page.
    return c.redirect(paymentUrl ?? linkPagePath(linkId), 303);
  });
}
