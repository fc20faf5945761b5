/**
 * The hot paths of issue 28, each one operation on one side (the almost empty database or the generated one):
 * requests through the app in process (no HTTP: the database is what differs between the sides), and the jobs'
 * statements called through their repositories.
 */
import { findLiveToken } from "../../src/domains/auth/auth.repo.js";
import { ordersAtExchange, ordersWithoutDispatchJob } from "../../src/domains/orders/orders-list.repo.js";
import { dueInstallments } from "../../src/domains/orders/installments.repo.js";
import { claimDueDeliveries } from "../../src/domains/webhooks/claims.repo.js";
import { releaseLeases } from "../../src/domains/webhooks/deliveries.repo.js";
import { DEFAULT_TUNING } from "../../src/domains/webhooks/attempts.js";
import { sha256Hex } from "../../src/platform/lib/crypto.js";
import type { Stack } from "../harness/stack.js";

export interface Subject {
  token: string;
  /** The smallest distributor's (on the almost empty side, the same as `token`). */
  tailToken: string;
  /** Orders and investors of the subject distributor, sampled. */
  orderIds: string[];
  investorIds: string[];
  /** The investor with the most orders. */
  busyInvestorId: string;
  /** An order id half-way down the distributor's list (a deep page's cursor). */
  deepOrderId: string;
  pans: string[];
  placement: unknown;
  /** The installment scheduler's day: by which a full batch is due on this side. */
  dueDay: Date;
}

/** The installment scheduler's batch (its pick's LIMIT). */
export const SCHEDULER_BATCH = 200;

export interface HotPath {
  name: string;
  run: (i: number) => Promise<unknown>;
  /** Rows the path answers (a list's page, a pick's batch), to show both sides do the same work. */
  rows?: () => Promise<number>;
}

export function hotPaths(stack: Stack, subject: Subject): HotPath[] {
  const { services } = stack;
  const headers = { authorization: `Bearer ${subject.token}`, "content-type": "application/json" };
  // Placement is the stack's own distributor's (its investor is the fixture's); the rest the subject's.
  const placementHeaders = { ...headers, authorization: `Bearer ${stack.token}` };
  const tailHeaders = { ...headers, authorization: `Bearer ${subject.tailToken}` };
  const expect = async (path: string, status: number, init: RequestInit = {}) => {
    const response = await stack.app.request(path, { headers, ...init });
    const text = await response.text();
    if (response.status !== status) throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text;
  };
  // A list's page or a lookup's answer: the rows it holds.
  const rowsOf = (path: string, init: RequestInit = {}) => async () => {
    const body = JSON.parse(await expect(path, 200, init)) as { data?: unknown[]; holdings?: unknown[] };
    return (body.data ?? body.holdings ?? []).length;
  };
  const list = (name: string, path: string, init: RequestInit = {}): HotPath => ({ name, run: async () => void (await expect(path, 200, init)), rows: rowsOf(path, init) });
  const cursor = (id: string) => Buffer.from(JSON.stringify([id])).toString("base64url");
  const at = <T>(list: T[], i: number) => list[i % list.length]!;
  const tokenHash = sha256Hex(subject.token);
  const lookup = (i: number): RequestInit => ({ method: "POST", body: JSON.stringify({ pan: at(subject.pans, i) }) });
  const pick = (name: string, take: () => Promise<unknown[]>): HotPath => ({ name, run: async () => void (await take()), rows: async () => (await take()).length });
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  return [
    { name: "placement (POST /api/orders/v1/)", run: () => expect("/api/orders/v1/", 201, { method: "POST", headers: placementHeaders, body: JSON.stringify(subject.placement) }) },
    { name: "GET /api/orders/v1/{id}", run: (i) => expect(`/api/orders/v1/${at(subject.orderIds, i)}`, 200) },
    list("order list, first page", "/api/orders/v1?limit=20"),
    list("order list, deep cursor page", `/api/orders/v1?limit=20&cursor=${cursor(subject.deepOrderId)}`),
    list("order list, status=ACCEPTED", "/api/orders/v1?limit=20&status=ACCEPTED"),
    list("order list, status=PENDING", "/api/orders/v1?limit=20&status=PENDING"),
    list("order list, investor_id", `/api/orders/v1?limit=20&investor_id=${subject.busyInvestorId}`),
    list("order list, first page, smallest distributor", "/api/orders/v1?limit=20", { headers: tailHeaders }),
    list("investor list", "/api/investors/v1?limit=20"),
    list("investor list, smallest distributor", "/api/investors/v1?limit=20", { headers: tailHeaders }),
    { name: "GET /api/investors/v1/{id}", run: (i) => expect(`/api/investors/v1/${at(subject.investorIds, i)}`, 200) },
    {
      name: "holdings lookup",
      run: async (i) => void (await expect("/api/holdings/v1/lookup", 200, lookup(i))),
      rows: async () => { let n = 0; for (let i = 0; i < subject.pans.length; i++) n += await rowsOf("/api/holdings/v1/lookup", lookup(i))(); return Math.round(n / subject.pans.length); },
    },
    list("webhook deliveries, status + event", "/api/webhooks/v1/deliveries?limit=20&status=DELIVERED&event=order.allotted"),
    list("webhook deliveries, status=PARKED", "/api/webhooks/v1/deliveries?limit=20&status=PARKED"),
    list("events, oldest page", "/api/events/v1?limit=50"),
    list("events since yesterday", `/api/events/v1?limit=50&since=${encodeURIComponent(yesterday)}`),
    { name: "events of one order", run: (i) => expect(`/api/events/v1?limit=50&resource_id=${at(subject.orderIds, i)}`, 200) },
    pick("status sync's pick (first batch)", () => ordersAtExchange(services.prisma, "", 500)),
    pick("lost-dispatch sweep's pick", () => ordersWithoutDispatchJob(services.prisma, 5, 500)),
    pick("webhook claim", async () => {
      const claimed = await claimDueDeliveries(services.prisma, { batch: DEFAULT_TUNING.batch, perDistributor: DEFAULT_TUNING.perDistributor, perSubscription: DEFAULT_TUNING.perSubscription, leaseMs: 60_000 });
      // Released again, so every run claims the same due deliveries.
      await releaseLeases(services.prisma, claimed.map((c) => ({ id: c.id, leaseUntil: c.lease_until })));
      return claimed;
    }),
    pick("installment scheduler's pick", () => dueInstallments(services.prisma, subject.dueDay, SCHEDULER_BATCH)),
    { name: "token check (live token by hash)", run: async () => void (await findLiveToken(services.prisma, tokenHash, new Date())) },
  ];
}
