import { beforeAll, describe, expect, it } from "vitest";
import { expireLinkJob } from "../../src/domains/order-links/jobs/expire-link.js";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { createLink, linkingDistributor, lumpsumProposal, publicPath } from "../helpers/order-links.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof linkingDistributor>>;

beforeAll(async () => {
  ctx = await linkingDistributor(app);
});

const statusOf = async (id: string) => (await app.prisma.orderLink.findUniqueOrThrow({ where: { id } })).status;
const expire = (id: string) => runTask(app, expireLinkJob, { link_id: id });
const pastDue = (id: string) => app.prisma.orderLink.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });

describe("the expiry job", () => {
  it("moves an ACTIVE link to EXPIRED at expires_at; confirm is then 409", async () => {
    const link = await createLink(app, ctx.token, { ...lumpsumProposal(ctx.investor), expires_in_hours: 1 });
    const id: string = link.body.id;
    expect(await queuedJobs(app, "order_links__expire", "link_id", id)).toEqual([{ key: `order_links__expire:${id}`, payload: { link_id: id }, max_attempts: 25 }]);

    await expire(id);
    expect(await statusOf(id)).toBe("ACTIVE");
    expect(await queuedJobs(app, "order_links__expire", "link_id", id)).toHaveLength(1);

    await pastDue(id);
    await expire(id);
    expect(await statusOf(id)).toBe("EXPIRED");
    await expire(id);
    expect(await statusOf(id)).toBe("EXPIRED");
    const res = await app.http("POST", publicPath(id, "confirm"));
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: "INVALID_STATE", message: "The order link is EXPIRED; only an ACTIVE link can be confirmed" });
    expect((await app.http("GET", `/api/order-links/v1/${id}`, { token: ctx.token })).body.status).toBe("EXPIRED");
  });

  it("leaves confirmed and cancelled links as they are", async () => {
    const confirmed = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    expect((await app.http("POST", publicPath(confirmed.body.id, "confirm"))).status).toBe(201);
    const cancelled = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    expect((await app.http("POST", `/api/order-links/v1/${cancelled.body.id}/cancel`, { token: ctx.token })).status).toBe(200);
    for (const id of [confirmed.body.id, cancelled.body.id]) {
      await pastDue(id);
      await expire(id);
    }
    expect(await statusOf(confirmed.body.id)).toBe("CONFIRMED");
    expect(await statusOf(cancelled.body.id)).toBe("CANCELLED");
    expect((await app.http("GET", publicPath(confirmed.body.id))).body.status).toBe("CONFIRMED");
  });

  it("does nothing for a link that no longer exists", async () => {
    await expect(expire("lnk_gone")).resolves.toBeUndefined();
  });
});
