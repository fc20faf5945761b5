import { beforeAll, describe, expect, it } from "vitest";
import { dueInstallments } from "../../src/domains/orders/installments.repo.js";
import { listOrders, ORDERS_AT_EXCHANGE_SQL, ordersAtExchange, ordersWithoutDispatchJob, undispatchedOrders } from "../../src/domains/orders/orders-list.repo.js";
import { useTestApp } from "../helpers/app.js";
import { fillAtScale, nodesOf, planOf, planOfStatementOn, rowsRemoved as removed, scansOf } from "../helpers/scale-data.js";

// The status sync's pick and the order list's statements on the generator's shapes (20,000 orders, the biggest
// distributor with most of them, live SIP registrations ACCEPTED): each a bounded range of an index, never a scan
// of the table nor a walk of the primary key that throws other distributors' or settled orders away.

const app = useTestApp();
let distributors: string[];
let busyInvestor: string;
let registration: string;

beforeAll(async () => {
  ({ distributors } = await fillAtScale(app.databaseUrl, app.services, { investors: 2_000, orders: 20_000 }));
  const [row] = await app.prisma.$queryRawUnsafe<Array<{ investor_id: string }>>(
    `SELECT investor_id FROM orders WHERE distributor_id = $1 GROUP BY investor_id ORDER BY count(*) DESC LIMIT 1`, distributors[0]);
  busyInvestor = row!.investor_id;
  const [parent] = await app.prisma.$queryRawUnsafe<Array<{ parent_order_id: string }>>(
    `SELECT parent_order_id FROM orders WHERE distributor_id = $1 AND parent_order_id IS NOT NULL LIMIT 1`, distributors[0]);
  registration = parent!.parent_order_id;
}, 120_000);

const planOfOrdersStatement = (run: () => Promise<unknown>) => planOfStatementOn(app.prisma, "orders", run);

describe("the status sync's pick", () => {
  it("reads its partial index from the cursor and stops at the batch: no row read and thrown away, no table page once vacuumed", async () => {
    await app.prisma.$executeRawUnsafe("VACUUM orders");
    const plan = await planOf(app.prisma, ORDERS_AT_EXCHANGE_SQL, ["", 500]);
    const scans = scansOf(plan, "orders");
    expect(scans.map((n) => [n["Node Type"], n["Index Name"]])).toEqual([["Index Only Scan", "orders_at_exchange_sync_covering_idx"]]);
    expect(scans[0]!["Heap Fetches"]).toBe(0);
    expect(plan["Node Type"]).toBe("Limit");
    expect(removed(plan)).toBe(0);
  });

  it("asks about held and accepted orders and the installments, not about live registrations", async () => {
    const picked = await ordersAtExchange(app.prisma, "", 100_000);
    const [expected] = await app.prisma.$queryRawUnsafe<Array<{ n: bigint; registrations: bigint }>>(
      `SELECT count(*) FILTER (WHERE parent_order_id IS NOT NULL OR order_type IN ('LUMPSUM_PURCHASE', 'REDEMPTION', 'SWITCH', 'SIP_TOPUP') OR status = 'PENDING') AS n,
              count(*) FILTER (WHERE status = 'ACCEPTED' AND parent_order_id IS NULL AND order_type IN ('SIP', 'XSIP', 'STP', 'SWP')) AS registrations
         FROM orders WHERE status IN ('PENDING', 'ACCEPTED') AND exchange_order_number IS NOT NULL`);
    expect(Number(expected!.registrations)).toBeGreaterThan(100);
    expect(picked).toHaveLength(Number(expected!.n));
    expect(picked.length).toBeGreaterThan(0);
    expect(picked.filter((o) => o.status === "ACCEPTED" && o.parentOrderId === null && ["SIP", "XSIP", "STP", "SWP"].includes(o.orderType))).toEqual([]);
    expect(picked.map((o) => o.id)).toEqual(picked.map((o) => o.id).sort());
  });
});

describe("the order list's statements", () => {
  const smallest = () => distributors[distributors.length - 1]!;
  // The distributor is a closed range and the order (distributor_id, id) (listOrders): the planner cannot walk
  // orders_pkey back and throw other distributors' newer orders away, however many there are.
  it("with no filter, the biggest distributor (first page and a deep cursor): a backward range of orders_distributor_id_id_idx, nothing thrown away", async () => {
    const [middle] = await app.prisma.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id FROM orders WHERE distributor_id = $1 ORDER BY id OFFSET 7000 LIMIT 1`, distributors[0]);
    for (const afterId of [undefined, middle!.id]) {
      const plan = await planOfOrdersStatement(() => listOrders(app.prisma, { distributorId: distributors[0]!, afterId, limit: 20 }));
      const scans = scansOf(plan, "orders");
      expect(scans.map((n) => [n["Node Type"], n["Index Name"], n["Actual Rows"]])).toEqual([["Index Scan", "orders_distributor_id_id_idx", 21]]);
      expect(removed(plan)).toBe(0);
    }
  });

  const cases: Array<[string, () => Parameters<typeof listOrders>[1], string]> = [
    ["no filter, the smallest distributor", () => ({ distributorId: smallest(), limit: 20 }), "orders_distributor_id_id_idx"],
    ["investor_id", () => ({ distributorId: distributors[0]!, investorId: busyInvestor, limit: 20 }), "orders_distributor_id_investor_id_id_idx"],
    ["status", () => ({ distributorId: smallest(), status: "ALLOTTED", limit: 20 }), "orders_distributor_id_status_id_idx"],
    ["order_type", () => ({ distributorId: smallest(), orderType: "REDEMPTION", limit: 20 }), "orders_distributor_id_order_type_id_idx"],
    ["parent_order_id", () => ({ distributorId: distributors[0]!, parentOrderId: registration, limit: 20 }), "orders_parent_order_id_idx"],
  ];
  for (const [name, filter, index] of cases) {
    it(`with ${name}: a range of ${index}`, async () => {
      const plan = await planOfOrdersStatement(() => listOrders(app.prisma, filter()));
      const scans = scansOf(plan, "orders");
      expect(scans.map((n) => [n["Node Type"], n["Index Name"]])).toEqual([["Index Scan", index]]);
      expect(removed(plan)).toBeLessThanOrEqual(20);
    });
  }

  it("with investor_id and status: the investor's range, only its other orders thrown away", async () => {
    const plan = await planOfOrdersStatement(() => listOrders(app.prisma, { distributorId: distributors[0]!, investorId: busyInvestor, status: "ACCEPTED", limit: 20 }));
    const scans = scansOf(plan, "orders");
    expect(scans).toHaveLength(1);
    expect(scans[0]!["Node Type"]).not.toBe("Seq Scan");
    const [own] = await app.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM orders WHERE investor_id = $1`, busyInvestor);
    expect(removed(plan)).toBeLessThanOrEqual(Number(own!.n));
  });
});

describe("the installment scheduler's pick", () => {
  it("reads the due SCHEDULED installments in its own order from their index, stopping at the batch, and each one's registration by key", async () => {
    // The scheduler's day: the first by which 12 SCHEDULED installments are due (the generated data leaves about a
    // day's worth due today, fewer on some dates: on 2026-12-01, 10), so the batch of 5 always has more behind it.
    // None such (null) would mean the generator left fewer than 12 in all.
    const [twelfth] = await app.prisma.$queryRawUnsafe<Array<{ day: Date | null }>>(
      `SELECT (SELECT due_date FROM order_installments WHERE status = 'SCHEDULED' ORDER BY due_date OFFSET 11 LIMIT 1) AS day`,
    );
    expect(twelfth!.day).not.toBeNull();
    const today = twelfth!.day!;
    const plan = await planOfStatementOn(app.prisma, "order_installments", () => dueInstallments(app.prisma, today, 5));
    const installments = scansOf(plan, "order_installments");
    expect(installments.map((n) => [n["Node Type"], n["Index Name"]])).toEqual([["Index Scan", "order_installments_status_due_date_order_id_installment_no_idx"]]);
    // No sort of the day's due installments: the batch of 5 (and the few whose registration is being cancelled) is all it reads.
    expect(nodesOf(plan).filter((n) => n["Node Type"].endsWith("Sort"))).toEqual([]);
    expect(installments[0]!["Actual Rows"]).toBeLessThanOrEqual(8);
    expect(scansOf(plan, "orders").map((n) => n["Index Name"])).toEqual(["orders_pkey"]);
  });
});

describe("the minute's sweep of placed orders without a dispatch job", () => {
  it("reads the unsent PENDING orders in id order from their partial index, stopping at the batch, and each one's job by its key", async () => {
    const [pending] = await app.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM orders WHERE status = 'PENDING' AND exchange_order_number IS NULL`);
    expect(Number(pending!.n)).toBeGreaterThan(10);
    const plan = await planOfStatementOn(app.prisma, "orders", () => ordersWithoutDispatchJob(app.prisma, 5, 5));
    const orders = scansOf(plan, "orders");
    expect(orders.map((n) => [n["Node Type"], n["Index Name"]])).toEqual([["Index Scan", "orders_unsent_idx"]]);
    // No sort of every unsent order: the batch of 5 is all it reads (none has a job here).
    expect(orders[0]!["Actual Rows"]).toBe(5);
    expect(nodesOf(plan).filter((n) => n["Node Type"].endsWith("Sort") || n["Node Type"] === "Seq Scan")).toEqual([]);
  });

  it("the dispatch recovery's pages of unsent orders: the same index, a page at a time", async () => {
    const plan = await planOfStatementOn(app.prisma, "orders", () => undispatchedOrders(app.prisma, "", 30, 5));
    const orders = scansOf(plan, "orders");
    // Index only (the page needs the ids alone, and the jobs by their key) or not, as the visibility map allows.
    expect(orders.map((n) => [n["Node Type"].replace("Index Only Scan", "Index Scan"), n["Index Name"]])).toEqual([["Index Scan", "orders_unsent_idx"]]);
    expect(orders[0]!["Actual Rows"]).toBe(5);
    expect(nodesOf(plan).filter((n) => n["Node Type"].endsWith("Sort") || n["Node Type"] === "Seq Scan")).toEqual([]);
  });
});

// Last in the file: it gives the newest orders to another distributor.
describe("the order list when other distributors' orders are the newest", () => {
  beforeAll(async () => {
    await app.prisma.$executeRawUnsafe(`UPDATE orders SET distributor_id = $1 WHERE id IN (SELECT id FROM orders ORDER BY id DESC LIMIT 3000)`, distributors[1]);
    await app.prisma.$executeRawUnsafe("ANALYZE orders");
  });

  it("the biggest distributor's first page: its newest orders, from its own range, none of the others' read", async () => {
    const listed = await listOrders(app.prisma, { distributorId: distributors[0]!, limit: 20 });
    const newest = await app.prisma.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id FROM orders WHERE distributor_id = $1 ORDER BY id DESC LIMIT 21`, distributors[0]);
    expect(listed.map((o) => o.id)).toEqual(newest.map((o) => o.id));
    const plan = await planOfOrdersStatement(() => listOrders(app.prisma, { distributorId: distributors[0]!, limit: 20 }));
    const scans = scansOf(plan, "orders");
    expect(scans.map((n) => [n["Node Type"], n["Index Name"], n["Actual Rows"]])).toEqual([["Index Scan", "orders_distributor_id_id_idx", 21]]);
    expect(removed(plan)).toBe(0);
  });
});
