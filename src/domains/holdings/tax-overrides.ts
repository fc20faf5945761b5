import type { SchemeTaxKind } from "../portfolio/tax.js";

/**
 * Schemes whose tax kind their AMFI category cannot tell (an index fund or FoF investing mainly in equity,
 * a solution-oriented scheme), by our scheme code. Empty until one is known; a constant for now (reports.md).
 */
export const TAX_KIND_OVERRIDES: ReadonlyMap<string, SchemeTaxKind> = new Map();
