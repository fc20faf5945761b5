import { readFileSync } from "node:fs";
import path from "node:path";
import { SCHEME_MASTER_HEADER, SIP_MASTER_HEADER } from "../exchange-masters.js";

/**
 * The exchange's scheme master as the double holds it: the codes it trades and the holding modes each serves
 * (the master's Purchase Transaction mode: P, D or DP). The exchange answers `INVALID SCHEME CODE` to an
 * order naming a code it does not list, or a code whose mode does not fit the order's DP transaction mode
 * (P: physical; C, N: demat). It reads the same pipe-separated file a test imports into the service, with
 * its own minimal reader (header names normalised), so a bug in the service's importer is not shared.
 */

export type DoubleMode = "P" | "D" | "DP";

/** The double's default master: the codes the adapter-level tests name (test/fixtures/bse/scheme-master.txt). */
export const DEFAULT_SCHEME_MASTER = path.resolve(import.meta.dirname, "../../fixtures/bse/scheme-master.txt");


const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

export class DoubleSchemeMaster {
  private readonly rows = new Map<string, { isin: string; mode: DoubleMode }>();

  /** Adds (or replaces) the codes of a master file's text. */
  load(text: string): void {
    const [header, ...lines] = text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((line) => line.trim() !== "");
    const names = header!.split("|").map(normalise);
    const at = (name: string) => names.indexOf(name);
    const [code, isin, mode] = [at("schemecode"), at("isin"), at("purchasetransactionmode")];
    if (code < 0 || isin < 0 || mode < 0) throw new Error("the double's scheme master needs Scheme Code, ISIN and Purchase Transaction mode");
    for (const line of lines) {
      const cells = line.split("|").map((c) => c.trim());
      this.add(cells[code]!, cells[isin]!, cells[mode]!.toUpperCase() as DoubleMode);
    }
  }

  loadFile(file: string): void {
    this.load(readFileSync(file, "utf8"));
  }

  add(code: string, isin: string, mode: DoubleMode = "DP"): void {
    this.rows.set(code, { isin, mode });
  }

  /** The exchange's refusal of a code for an order's DP transaction mode (P, C or N), or null when it trades it. */
  refusal(code: string | undefined, dpTxn: string | undefined = undefined): string | null {
    const row = code ? this.rows.get(code) : undefined;
    if (!code) return "FAILED: SCHEME CODE MANDATORY";
    if (!row) return "FAILED: INVALID SCHEME CODE";
    if (dpTxn === undefined || row.mode === "DP") return null;
    return (dpTxn === "P") === (row.mode === "P") ? null : "FAILED: INVALID SCHEME CODE";
  }

  /** A SIP master for every code: MONTHLY, QUARTERLY and WEEKLY on days 1-28, any amount from 100 (the exchange's SIP master layout). */
  sipText(): string {
    const days = Array.from({ length: 28 }, (_, i) => i + 1).join(",");
    const lines = [...this.rows].flatMap(([code, row]) =>
      ["MONTHLY", "QUARTERLY", "WEEKLY"].map((frequency) =>
        ["DOUBLE_MF", "Double Mutual Fund", code, `Double ${code}`, row.mode, frequency, days, "0", "", "1", "Y", "100", "", "1", "1", "", row.isin, "EQUITY", "N"].join("|"),
      ),
    );
    return [SIP_MASTER_HEADER.join("|"), ...lines].join("\n") + "\n";
  }

  /** The whole master as the exchange publishes it: what a test imports into the service. */
  text(): string {
    const lines = [...this.rows].map(([code, row], i) => {
      const cells: Record<string, string> = {
        "Unique No": String(i + 1), "Scheme Code": code, ISIN: row.isin, "Scheme Name": `Double ${code}`, "Scheme Type": "EQUITY",
        "Purchase Allowed": "Y", "Purchase Transaction mode": row.mode, "Redemption Allowed": "Y", "Redemption Transaction Mode": row.mode,
        "Minimum Purchase Amount": "100", "Purchase Amount Multiplier": "0", "Purchase Cutoff Time": "15:00:00", "Redemption Cut off Time": "15:00:00",
        "AMC Active Flag": "1", "SIP FLAG": "Y", "STP FLAG": "Y", "SWP Flag": "Y", "Switch FLAG": "Y", "Start Date": "01-01-2010",
      };
      return SCHEME_MASTER_HEADER.map((h) => cells[h] ?? "").join("|");
    });
    return [SCHEME_MASTER_HEADER.join("|"), ...lines].join("\n") + "\n";
  }
}
