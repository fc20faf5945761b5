import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs } from "../helpers/jobs.js";
import { acceptedLink, createLink, linkingDistributor, lumpsumProposal, publicPath } from "../helpers/order-links.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof linkingDistributor>>;

beforeAll(async () => {
  ctx = await linkingDistributor(app);
});

describe("concurrency", () => {
  it("20 confirmations at once place one order: one 201, nineteen 200 with the same body", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor, { client_ref: "burst-1" }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.http("POST", publicPath(link.body.id, "confirm"))));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array<number>(19).fill(200), 201]);
    const first = answers.find((a) => a.status === 201)!.body;
    for (const answer of answers) expect(answer.body).toEqual(first);
    const orders = await app.prisma.order.findMany({ where: { investmentAccountId: ctx.investor.account, clientRef: "burst-1" } });
    expect(orders.map((o) => o.id)).toEqual([first.id]);
    expect(await queuedJobs(app, "orders__dispatch", "order_id", first.id)).toHaveLength(1);
    expect(await app.prisma.orderLink.findUniqueOrThrow({ where: { id: link.body.id } })).toMatchObject({ status: "CONFIRMED", orderId: first.id });
  });

  it("10 payments at once start one: one 201, nine 200 with the same payment", async () => {
    const { linkId, orderId } = await acceptedLink(app, ctx.token, lumpsumProposal(ctx.investor));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => app.http("POST", publicPath(linkId, "pay"), { token: ctx.token, json: { mode: "UPI", vpa: "asha@okhdfc" } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array<number>(9).fill(200), 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await app.prisma.payment.count({ where: { orderId } })).toBe(1);
  });
});
