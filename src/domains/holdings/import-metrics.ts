import { Counter } from "prom-client";
import { metricsRegistry } from "../../platform/metrics/registry.js";
import type { ImportReport } from "./import.js";

const importedRows = new Counter({
  name: "mf_holdings_import_rows_total",
  help: "Holding positions imported from the registrars' feeds, by registrar (rows kept; skipped and duplicate rows not counted)",
  labelNames: ["registrar"] as const,
  registers: [metricsRegistry],
});

/** Counts what one batch import kept (nothing for a duplicate or rejected batch: their `imported` is 0). */
export function countImportedRows(report: Pick<ImportReport, "registrar" | "imported">): void {
  importedRows.inc({ registrar: report.registrar }, report.imported);
}
