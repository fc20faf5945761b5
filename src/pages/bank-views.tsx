import type { BankForm } from "./bank-form.js";
import { ErrorPage, Layout } from "./layout.js";
import { linkPagePath } from "./return-address.js";

/**
 * Net banking: the bank's form, rebuilt by us from the exchange's answer (its action and fields, escaped
 * by JSX), sent by the investor's own click. No script: the page works, and shows where it goes, without it.
 */
export function BankFormPage({ linkId, form }: { linkId: string; form: BankForm }) {
  return (
    <Layout title="Continue to your bank">
      <section class="card" aria-labelledby="title">
        <h1 id="title">Continue to your bank</h1>
        <p>
          Your bank's page opens at <strong>{new URL(form.action).host}</strong>. Nothing is paid until you confirm the payment there.
        </p>
        <form method={form.method} action={form.action}>
          {form.fields.map((field) => (
            <input type="hidden" name={field.name} value={field.value} />
          ))}
          <button type="submit" class="button">Continue to your bank</button>
        </form>
        <p>
          <a href={linkPagePath(linkId)}>Back to your order</a>
        </p>
      </section>
    </Layout>
  );
}

/** The exchange answered a bank page we cannot show safely (no single https form): the investor goes back. */
export function BankPageUnusable({ linkId }: { linkId: string }) {
  return (
    <ErrorPage
      status={502}
      title="Your bank's page could not be opened"
      message="Nothing has been paid. Go back to your order; this page shows the payment once the exchange confirms it, or lets you pay again if it fails."
      back={{ href: linkPagePath(linkId), label: "Back to your order" }}
    />
  );
}
