import { afterAll, beforeAll } from "vitest";
import { todayInIndia } from "../../../src/platform/lib/india-date.js";
import { DoubleOrderEntry } from "./order-entry.js";
import { DoublePauses } from "./pauses.js";
import { DoubleChildOrders } from "./child-orders.js";
import { DoublePlans } from "./plans.js";
import { DoubleRegistrations } from "./registrations.js";
import { DoubleReports } from "./reports.js";
import { startDoubleServer, type DoubleServer } from "./server.js";
import { DoubleSessions, type Credentials } from "./sessions.js";
import { DoubleTransfers } from "./transfers.js";
import { DEFAULT_SCHEME_MASTER, DoubleSchemeMaster } from "./scheme-master.js";

/** The member the double knows (a 5-character member code, so TransNo is 8 + 5 + 6 = 19 characters). */
export const DOUBLE_CREDENTIALS: Credentials = { userId: "1023401", memberId: "10234", password: "Uat@pass1" };

export interface BseDouble extends DoubleServer {
  sessions: DoubleSessions;
  orderEntry: DoubleOrderEntry;
  reports: DoubleReports;
  plans: DoublePlans;
  childOrders: DoubleChildOrders;
  registrations: DoubleRegistrations;
  transfers: DoubleTransfers;
  /** SIP / XSIP pauses (PauseSIP). */
  pauses: DoublePauses;
  /** The exchange's scheme master: the codes it trades (the default fixture's, and what a test adds). */
  schemeMaster: DoubleSchemeMaster;
  credentials: Credentials;
  /** The environment that points MF_EXCHANGE=bse at this double. */
  env(overrides?: Record<string, string>): Record<string, string>;
}

/**
 * The exchange double: its server with the services built so far (logins, order entry, switch, SIP and
 * XSIP, reports, child orders, registrations and payments, STP and SWP, SIP pause). Later slices
 * register theirs on `double.soap(path, action, handler)` / `double.json(path, handler)`.
 */
export async function startBseDouble(options: { now?: () => number; today?: () => string } = {}): Promise<BseDouble> {
  const server = await startDoubleServer();
  const credentials = DOUBLE_CREDENTIALS;
  const sessions = new DoubleSessions(credentials, server, options.now);
  const schemeMaster = new DoubleSchemeMaster();
  schemeMaster.loadFile(DEFAULT_SCHEME_MASTER);
  const orderEntry = new DoubleOrderEntry(credentials, sessions, server, options.today ?? (() => todayInIndia()), schemeMaster);
  const reports = new DoubleReports(credentials, orderEntry, server);
  const plans = new DoublePlans(credentials, sessions, orderEntry, server);
  const registrations = new DoubleRegistrations(credentials, sessions, orderEntry, server, plans);
  const transfers = new DoubleTransfers(credentials, server, schemeMaster);
  const pauses = new DoublePauses(credentials, server, plans);
  const childOrders = new DoubleChildOrders(credentials, orderEntry, plans, registrations.swps, transfers.stps, server, options.now);
  return Object.assign(server, {
    sessions,
    orderEntry,
    reports,
    plans,
    childOrders,
    registrations,
    transfers,
    pauses,
    schemeMaster,
    credentials,
    env: (overrides: Record<string, string> = {}) => ({
      MF_EXCHANGE: "bse",
      BSE_BASE_URL: server.baseUrl,
      BSE_USER_ID: credentials.userId,
      BSE_MEMBER_ID: credentials.memberId,
      BSE_PASSWORD: credentials.password,
      BSE_API_KEY: "double-api-key",
      BSE_TIMEOUT_MS: "2000",
      ...overrides,
    }),
  });
}

/**
 * A double for one test file (started before its tests, closed after). `env`, when given, is filled
 * with the double's environment before later hooks run: pass the same object to useTestApp (registered
 * after this) to get an app whose exchange is the double.
 */
export function useBseDouble(env?: Record<string, string>, overrides: Record<string, string> = {}): { current: BseDouble } {
  const holder = {} as { current: BseDouble };
  beforeAll(async () => {
    holder.current = await startBseDouble();
    if (env) Object.assign(env, holder.current.env(overrides));
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return holder;
}

/**
 * BSE settings a production test app needs to start (production requires MF_EXCHANGE=bse) when the test
 * never reaches the exchange: `.invalid` never resolves.
 */
export const UNREACHED_BSE_ENV: Record<string, string> = {
  MF_EXCHANGE: "bse",
  BSE_BASE_URL: "https://bse.invalid",
  BSE_USER_ID: DOUBLE_CREDENTIALS.userId,
  BSE_MEMBER_ID: DOUBLE_CREDENTIALS.memberId,
  BSE_PASSWORD: DOUBLE_CREDENTIALS.password,
  BSE_API_KEY: "unused",
};
