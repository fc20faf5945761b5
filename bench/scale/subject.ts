/**
 * Who the benchmark at scale acts as, the same on both sides (both generated, the almost empty one at a small
 * scale): the biggest distributor (~70% of the data), with API credentials set for the run, and the smallest
 * (0.3%) for the lists' other extreme. Both place lump sums with bench/harness/placement-fixture.ts's investor
 * and scheme (the stack's own distributor).
 */
import { randomBytes } from "node:crypto";
import { setClientCredentials } from "../../src/domains/auth/distributors.service.js";
import { lumpSumFixture } from "../harness/placement-fixture.js";
import type { Stack } from "../harness/stack.js";
import { panOf } from "./ids.js";
import { scaleArn } from "./people.js";
import { DISTRIBUTOR_SHARES, investorBlocks } from "./shapes.js";
import { SCHEDULER_BATCH, type Subject } from "./hot-paths.js";
import { todayInIndia } from "../../src/platform/lib/india-date.js";

/** Orders, investors and PANs sampled per side (each path cycles through them). */
export const SUBJECT_SAMPLE = 200;

/** A bearer token of the generated distributor with this ARN (credentials set for the run). */
async function tokenOf(stack: Stack, arn: string): Promise<{ distributorId: string; token: string }> {
  const distributor = await stack.services.prisma.distributor.findUnique({ where: { arn } });
  if (!distributor) throw new Error(`no distributor ${arn}: run npm run bench:seed-scale first`);
  const clientId = `scale-bench-${randomBytes(4).toString("hex")}`;
  const clientSecret = randomBytes(24).toString("hex");
  await setClientCredentials(stack.services.prisma, { distributorId: distributor.id, clientId, clientSecret });
  return { distributorId: distributor.id, token: (await stack.services.auth.issueToken(clientId, clientSecret)).access_token };
}

export async function subjectOf(stack: Stack): Promise<Subject> {
  const { prisma } = stack.services;
  // Earlier runs' placements on the same generated database (the stacks' own distributors, ARN-7...: never sent, no
  // worker runs here) go, with their dispatch jobs: the sweep and the lists see the generated open work only.
  await prisma.$executeRawUnsafe(`SELECT graphile_worker.remove_job('orders__dispatch:' || o.id) FROM orders o JOIN distributors d ON d.id = o.distributor_id WHERE d.arn LIKE 'ARN-7%'`);
  for (const table of ["events", "payments", "orders"]) {
    await prisma.$executeRawUnsafe(`DELETE FROM ${table} WHERE distributor_id IN (SELECT id FROM distributors WHERE arn LIKE 'ARN-7%')`);
  }
  // A second run on the same generated database makes the fixture's scheme again.
  await prisma.exchangeScheme.deleteMany({ where: { code: "BSEBENCH01" } });
  await prisma.scheme.deleteMany({ where: { schemeCode: "BENCH01" } });
  const { body: placement } = await lumpSumFixture(stack);
  const { distributorId, token } = await tokenOf(stack, scaleArn(0));
  const { token: tailToken } = await tokenOf(stack, scaleArn(DISTRIBUTOR_SHARES.length - 1));
  const ids = async (sql: string) => (await prisma.$queryRawUnsafe<Array<{ id: string }>>(sql, distributorId)).map((r) => r.id);
  const orderIds = await ids(`SELECT id FROM orders WHERE distributor_id = $1 ORDER BY md5(id) LIMIT ${SUBJECT_SAMPLE}`);
  const investorIds = await ids(`SELECT id FROM investors WHERE distributor_id = $1 ORDER BY md5(id) LIMIT ${SUBJECT_SAMPLE}`);
  const [busyInvestorId] = await ids(`SELECT investor_id AS id FROM orders WHERE distributor_id = $1 GROUP BY investor_id ORDER BY count(*) DESC LIMIT 1`);
  const { n } = (await prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM orders WHERE distributor_id = $1`, distributorId))[0]!;
  const [deepOrderId] = await ids(`SELECT id FROM orders WHERE distributor_id = $1 ORDER BY id DESC OFFSET ${Math.floor(n / 2)} LIMIT 1`);
  // The generated investors' PANs are panOf(n); the biggest distributor's are the first ones (bench/scale/shapes.ts).
  const { investors } = (await prisma.$queryRawUnsafe<Array<{ investors: number }>>(
    `SELECT count(*)::int AS investors FROM investors i JOIN distributors d ON d.id = i.distributor_id WHERE d.arn LIKE 'ARN-9%'`))[0]!;
  const biggest = investorBlocks(investors)[0]!.count;
  const pans = Array.from({ length: SUBJECT_SAMPLE }, (_, i) => panOf((i * 7) % biggest));
  // The scheduler's day: today, or later where fewer than a batch is due by today (the almost empty side), so both sides pick a full batch (or all there are).
  const [due] = await prisma.$queryRawUnsafe<Array<{ day: Date }>>(`SELECT max(due_date) AS day FROM (SELECT due_date FROM order_installments WHERE status = 'SCHEDULED' ORDER BY due_date LIMIT ${SCHEDULER_BATCH}) first`);
  const today = new Date(`${todayInIndia()}T00:00:00Z`);
  const dueDay = due && due.day > today ? due.day : today;
  return { token, tailToken, orderIds, investorIds, busyInvestorId: busyInvestorId!, deepOrderId: deepOrderId!, pans, placement, dueDay };
}
