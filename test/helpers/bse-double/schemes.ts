import { importExchangeMasters } from "../../../src/domains/masters/exchange-masters.import.js";
import type { TestApp } from "../app.js";
import { createAmfiScheme } from "../orders.js";
import type { BseDouble } from "./double.js";
import type { DoubleMode } from "./scheme-master.js";

/**
 * A scheme the exchange trades: our scheme master's row, its code `BSE<scheme code>` (mode `DP` unless given)
 * added to the double's scheme master, and that whole master (with a SIP master for its codes) imported into the
 * service by the production importer, so the service and the exchange hold the same file. Answers the code.
 */
export async function createBseScheme(app: TestApp, double: BseDouble, schemeCode: string, mode: DoubleMode = "DP", code = `BSE${schemeCode}`): Promise<string> {
  const isin = await createAmfiScheme(app, schemeCode);
  double.schemeMaster.add(code, isin, mode);
  await importExchangeMasters(app.prisma, { schemes: double.schemeMaster.text(), sip: double.schemeMaster.sipText() });
  return code;
}
