/**
 * The hot paths of issue 28, each one operation on one side (the almost empty database or the generated one):
 * requests through the app in process (no HTTP: the database is what differs between the sides), and the jobs'
 * statements called through their repositories.
 */
import { findLiveToken } from "../../src/domains/auth/auth.repo.js";
import { ordersAtExchange, ordersWithoutDispatchJob } from "../../src/domains/orders/orders-list.repo.js";
import { dueInstallments } from "../../src/domains/orders/installments.repo.js";
import { claimDueDeliveries } from "../../src/domains/webhooks/claims.repo.js";
import { DEFAULT_TUNING } from "../../src/domains/webhooks/attempts.js";
import { sha256Hex } from "../../src/platform/lib/crypto.js";
import { todayInIndia } from "../../src/platform/lib/india-date.js";
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
}

export interface HotPath {
  name: string;
  run: (i: number) => Promise<void>;
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
  };
  const cursor = (id: string) => Buffer.from(JSON.stringify([id])).toString("base64url");
  const at = <T>(list: T[], i: number) => list[i % list.length]!;
  const tokenHash = sha256Hex(subject.token);
  const today = new Date(`${todayInIndia()}T00:00:00Z`);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  return [
    { name: "placement (POST /api/orders/v1/)", run: () => expect("/api/orders/v1/", 201, { method: "POST", headers: placementHeaders, body: JSON.stringify(subject.placement) }) },
    { name: "GET /api/orders/v1/{id}", run: (i) => expect(`/api/orders/v1/${at(subject.orderIds, i)}`, 200) },
    { name: "order list, first page", run: () => expect("/api/orders/v1?limit=20", 200) },
    { name: "order list, deep cursor page", run: () => expect(`/api/orders/v1?limit=20&cursor=${cursor(subject.deepOrderId)}`, 200) },
    { name: "order list, status=ACCEPTED", run: () => expect("/api/orders/v1?limit=20&status=ACCEPTED", 200) },
    { name: "order list, status=PENDING", run: () => expect("/api/orders/v1?limit=20&status=PENDING", 200) },
    { name: "order list, investor_id", run: () => expect(`/api/orders/v1?limit=20&investor_id=${subject.busyInvestorId}`, 200) },
    { name: "order list, first page, smallest distributor", run: () => expect("/api/orders/v1?limit=20", 200, { headers: tailHeaders }) },
    { name: "investor list", run: () => expect("/api/investors/v1?limit=20", 200) },
    { name: "investor list, smallest distributor", run: () => expect("/api/investors/v1?limit=20", 200, { headers: tailHeaders }) },
    { name: "GET /api/investors/v1/{id}", run: (i) => expect(`/api/investors/v1/${at(subject.investorIds, i)}`, 200) },
    { name: "holdings lookup", run: (i) => expect("/api/holdings/v1/lookup", 200, { method: "POST", body: JSON.stringify({ pan: at(subject.pans, i) }) }) },
    { name: "webhook deliveries, status + event", run: () => expect("/api/webhooks/v1/deliveries?limit=20&status=DELIVERED&event=order.allotted", 200) },
    { name: "webhook deliveries, status=PARKED", run: () => expect("/api/webhooks/v1/deliveries?limit=20&status=PARKED", 200) },
    { name: "events, oldest page", run: () => expect("/api/events/v1?limit=50", 200) },
    { name: "events since yesterday", run: () => expect(`/api/events/v1?limit=50&since=${encodeURIComponent(yesterday)}`, 200) },
    { name: "events of one order", run: (i) => expect(`/api/events/v1?limit=50&resource_id=${at(subject.orderIds, i)}`, 200) },
    { name: "status sync's pick (first batch)", run: async () => void (await ordersAtExchange(services.prisma, "", 500)) },
    { name: "lost-dispatch sweep's pick", run: async () => void (await ordersWithoutDispatchJob(services.prisma, 5, 500)) },
    {
      name: "webhook claim",
      run: async () => {
        const claimed = await claimDueDeliveries(services.prisma, { batch: DEFAULT_TUNING.batch, perDistributor: DEFAULT_TUNING.perDistributor, perSubscription: DEFAULT_TUNING.perSubscription, leaseMs: 60_000 });
        // Released again, so every run claims the same due deliveries.
        if (claimed.length > 0) await services.prisma.$executeRawUnsafe(`UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ANY($1)`, claimed.map((c) => c.id));
      },
    },
    { name: "installment scheduler's pick", run: async () => void (await dueInstallments(services.prisma, today, 200)) },
    { name: "token check (live token by hash)", run: async () => void (await findLiveToken(services.prisma, tokenHash, new Date())) },
  ];
}
