import type { Context, Hono } from "hono";
import { requestClientAddress } from "../platform/http/client-ip.js";
import type { Services } from "../domains/shared/services.js";
import { confirmOptOut, consentPageFacts, consentPagePath } from "../domains/investors/consents.service.js";
import { DECLARATION_PARAGRAPHS, DECLARATION_TITLE, DECLARATION_VERSION } from "../domains/investors/nomination-declaration.js";
import { ErrorPage, Layout } from "./layout.js";
import { indiaDateTime } from "./format.js";
import { isCode, renderError, renderPage, type PagesEnv } from "./render.js";
import { FORM_TOKEN_FIELD, formTokenFor, readProtectedForm, spendAddressBudget } from "./security.js";

type Facts = Awaited<ReturnType<typeof consentPageFacts>>;

/** An id that names no consent link: the same page whatever the id (never echoed). */
const UnknownConsentPage = () => (
  <ErrorPage status={404} title="This link does not exist" message="Check that you opened the whole address, or ask your distributor to send the link again." />
);

const ExpiredConsentPage = ({ facts }: { facts: Facts }) => (
  <ErrorPage
    status={410}
    title="This link has expired"
    message={`It expired on ${indiaDateTime(facts.expiresAt.toISOString())} and nothing was recorded. Ask your distributor for a new link.`}
  />
);

function ConsentPage({ facts, formToken }: { facts: Facts; formToken: string }) {
  const confirmed = facts.status === "CONFIRMED";
  return (
    <Layout title={DECLARATION_TITLE}>
      <section class="card" aria-labelledby="title">
        <p class="badge">Nomination</p>
        <h1 id="title">{DECLARATION_TITLE}</h1>
        <dl class="proposal">
          <dt>Investor</dt>
          <dd>{facts.investor.name}</dd>
          <dt>PAN</dt>
          <dd>{facts.investor.pan}</dd>
        </dl>
        {DECLARATION_PARAGRAPHS.map((text) => (
          <p>{text}</p>
        ))}
        <p class="muted">Declaration version {DECLARATION_VERSION}</p>
        {confirmed ? (
          <p class="outcome good" role="status" id="confirmed">
            You confirmed this declaration on {indiaDateTime(facts.confirmedAt!.toISOString())}. Nothing more to do.
          </p>
        ) : (
          <>
            <p>By confirming, you make this declaration yourself. We record the time, the address of your device and your browser.</p>
            <form method="post" action={`${consentPagePath(facts.id)}/confirm`}>
              <input type="hidden" name={FORM_TOKEN_FIELD} value={formToken} />
              <button type="submit">I confirm: I do not wish to nominate</button>
            </form>
          </>
        )}
      </section>
    </Layout>
  );
}

/**
 * `/consents/{id}`: the investor's page of a nomination opt-out. GET shows the declaration; the confirm
 * form posts (form token and origin checked, as the order link pages) and redirects (303) back to it.
 * Every request spends one request of the client address's budget (ids cannot be tried without bound).
 */
export function mountConsentPages(pages: Hono<PagesEnv>, services: Services): void {
  const base = services.config.publicBaseUrl;
  const clientIp = (c: Context) => requestClientAddress(c, services.config.trustProxyHops);

  pages.use("/consents/*", spendAddressBudget(services));

  const show = async (c: Context<PagesEnv>, id: string) => {
    let facts: Facts;
    try {
      facts = await consentPageFacts(services, id);
    } catch (error) {
      if (isCode(error, "NOT_FOUND")) return renderPage(c, <UnknownConsentPage />, 404);
      throw error;
    }
    if (facts.status === "EXPIRED") return renderPage(c, <ExpiredConsentPage facts={facts} />, 410);
    return renderPage(c, <ConsentPage facts={facts} formToken={formTokenFor(c, services.cipher, facts.id, base)} />);
  };

  pages.get("/consents/:id", (c) => show(c, c.req.param("id")));

  pages.post("/consents/:id/confirm", async (c) => {
    const id = c.req.param("id");
    await readProtectedForm(c, services.cipher, id, base);
    try {
      await confirmOptOut(services, id, { ip: clientIp(c), userAgent: c.req.header("user-agent") });
    } catch (error) {
      if (isCode(error, "NOT_FOUND")) return renderPage(c, <UnknownConsentPage />, 404);
      if (isCode(error, "INVALID_STATE")) {
        const facts = await consentPageFacts(services, id);
        if (facts.status === "EXPIRED") return renderPage(c, <ExpiredConsentPage facts={facts} />, 410);
        return renderError(c, error, { href: consentPagePath(id), label: "Back to the declaration" });
      }
      throw error;
    }
    return c.redirect(consentPagePath(id), 303);
  });
}
