import type { Hono } from "hono";
import { requestClientAddress } from "../../platform/http/client-ip.js";
import { validationError } from "../../platform/lib/errors.js";
import { assertSafeInput } from "../../platform/lib/hostile-input.js";
import { issuesToDetails } from "../../platform/lib/zod.js";
import { admitCaller } from "../shared/authenticator.js";
import type { Services } from "../shared/services.js";
import { capitalGainsCsv } from "./capital-gains.csv.js";
import { capitalGainsPdf } from "./capital-gains.pdf.js";
import { CapitalGainsInput } from "./capital-gains.schemas.js";
import { capitalGains } from "./capital-gains.service.js";

const PATH = "/api/investors/v1/:id/capital-gains";
const OFFERED = ["application/json", "text/csv", "application/pdf"] as const;
type Offered = (typeof OFFERED)[number];

/** The offered type the Accept header prefers (highest q; on a tie, the one named first); JSON when none is named. */
export function preferredType(accept: string | undefined): Offered {
  let best: { type: Offered; q: number } = { type: "application/json", q: -1 };
  for (const part of (accept ?? "").split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith("q="))?.slice(2) ?? "1");
    const type = OFFERED.find((t) => t === name.trim());
    if (type && Number.isFinite(q) && q > 0 && q > best.q) best = { type, q };
  }
  return best.type;
}

/**
 * `GET /api/investors/v1/{id}/capital-gains` as CSV or PDF (`Accept: text/csv`, `application/pdf`): mounted on
 * Hono before the REST adapter (tRPC answers JSON only), which answers JSON; the same bearer check, request
 * budget and input checks. Errors: the envelope (app.onError).
 */
export function mountCapitalGainsDownloads<E extends object>(app: Hono<E>, services: Services): void {
  app.get(PATH, async (c, next) => {
    const type = preferredType(c.req.header("accept"));
    if (type === "application/json") return next();
    const headers: Record<string, string> = {};
    const caller = await admitCaller(services, { authorization: c.req.header("authorization"), clientIp: requestClientAddress(c, services.config.trustProxyHops) }, headers);
    const raw = { id: c.req.param("id") ?? "", financial_year: c.req.query("financial_year") };
    assertSafeInput(raw);
    const input = CapitalGainsInput.safeParse(raw);
    if (!input.success) throw validationError(issuesToDetails(input.error.issues));
    const statement = await capitalGains(services, caller, input.data.id, input.data.financial_year);
    const name = `capital-gains-${input.data.id.replace(/[^A-Za-z0-9_-]/g, "_")}-${input.data.financial_year}`;
    const common = { ...headers, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };
    if (type === "text/csv") {
      return c.body(capitalGainsCsv(statement), 200, { ...common, "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}.csv"` });
    }
    const pdf = await capitalGainsPdf(statement);
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, { ...common, "Content-Type": "application/pdf", "Content-Length": String(pdf.length), "Content-Disposition": `attachment; filename="${name}.pdf"` });
  });
}
