/**
 * Who the benchmark at scale acts as on each side. On the generated database: its biggest distributor (~70% of
 * the data), with API credentials set for the run, and its smallest (0.3%) for the lists' other extreme. On the almost empty one: the stack's own distributor with a
 * few orders placed. Both place lump sums with bench/harness/placement-fixture.ts's investor and scheme.
 */
import { randomBytes } from "node:crypto";
import { setClientCredentials } from "../../src/domains/auth/distributors.service.js";
import { lumpSumFixture } from "../harness/placement-fixture.js";
import type { Stack } from "../harness/stack.js";
import { panOf } from "./ids.js";
import { scaleArn } from "./people.js";
import { DISTRIBUTOR_SHARES } from "./shapes.js";
import type { Subject } from "./hot-paths.js";

const SAMPLE = 200;

/** A bearer token of the generated distributor with this ARN (credentials set for the run). */
async function tokenOf(stack: Stack, arn: string): Promise<{ distributorId: string; token: string }> {
  const distributor = await stack.services.prisma.distributor.findUnique({ where: { arn } });
  if (!distributor) throw new Error(`no distributor ${arn}: run npm run bench:seed-scale first`);
  const clientId = `scale-bench-${randomBytes(4).toString("hex")}`;
  const clientSecret = randomBytes(24).toString("hex");
  await setClientCredentials(stack.services.prisma, { distributorId: distributor.id, clientId, clientSecret });
  return { distributorId: distributor.id, token: (await stack.services.auth.issueToken(clientId, clientSecret)).access_token };
}

export async function subjectOf(stack: Stack, generated: boolean): Promise<Subject> {
  const { prisma } = stack.services;
  // A second run on the same generated database makes the fixture's scheme again.
  await prisma.exchangeScheme.deleteMany({ where: { code: "BSEBENCH01" } });
  await prisma.scheme.deleteMany({ where: { schemeCode: "BENCH01" } });
  const { body: placement } = await lumpSumFixture(stack);
  let distributorId = stack.distributorId;
  let token = stack.token;
  let tailToken = stack.token;
  if (generated) {
    ({ distributorId, token } = await tokenOf(stack, scaleArn(0)));
    ({ token: tailToken } = await tokenOf(stack, scaleArn(DISTRIBUTOR_SHARES.length - 1)));
  } else {
    for (let i = 0; i < 30; i++) {
      const response = await stack.app.request("/api/orders/v1/", { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(placement) });
      if (response.status !== 201) throw new Error(`placement for the small side: ${response.status} ${await response.text()}`);
    }
  }
  const ids = async (sql: string) => (await prisma.$queryRawUnsafe<Array<{ id: string }>>(sql, distributorId)).map((r) => r.id);
  const orderIds = await ids(`SELECT id FROM orders WHERE distributor_id = $1 ORDER BY md5(id) LIMIT ${SAMPLE}`);
  const investorIds = await ids(`SELECT id FROM investors WHERE distributor_id = $1 ORDER BY md5(id) LIMIT ${SAMPLE}`);
  const [busyInvestorId] = await ids(`SELECT investor_id AS id FROM orders WHERE distributor_id = $1 GROUP BY investor_id ORDER BY count(*) DESC LIMIT 1`);
  const { n } = (await prisma.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM orders WHERE distributor_id = $1`, distributorId))[0]!;
  const [deepOrderId] = await ids(`SELECT id FROM orders WHERE distributor_id = $1 ORDER BY id DESC OFFSET ${Math.floor(n / 2)} LIMIT 1`);
  // The generated investors' PANs are panOf(n); the biggest distributor's are the first ones (bench/scale/shapes.ts).
  const pans = generated ? Array.from({ length: SAMPLE }, (_, i) => panOf(i * 7)) : ["ABCPE1234F"];
  return { token, tailToken, orderIds, investorIds, busyInvestorId: busyInvestorId!, deepOrderId: deepOrderId!, pans, placement };
}
