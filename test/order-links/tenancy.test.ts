import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { acceptedLink, createLink, linkingDistributor, lumpsumProposal, publicPath } from "../helpers/order-links.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof linkingDistributor>>;

beforeAll(async () => {
  ctx = await linkingDistributor(app);
});

const NOT_FOUND = { code: "NOT_FOUND", message: "Order link not found" };

describe("tenancy", () => {
  it("hides a link from another distributor on every bearer path (404, as an unknown id), and from its list", async () => {
    const { linkId } = await acceptedLink(app, ctx.token, lumpsumProposal(ctx.investor));
    const other = { token: ctx.otherToken };
    for (const [method, path, json] of [
      ["GET", `/api/order-links/v1/${linkId}`, undefined],
      ["POST", `/api/order-links/v1/${linkId}/cancel`, undefined],
      ["POST", publicPath(linkId, "pay"), { mode: "UPI", vpa: "asha@okhdfc" }],
    ] as const) {
      const res = await app.http(method, path, { ...other, json });
      expect(res.status, path).toBe(404);
      expect(res.body.error).toEqual(NOT_FOUND);
    }
    expect((await app.http("GET", "/api/order-links/v1", other)).body).toEqual({ data: [], next_cursor: null });
    expect(await app.prisma.payment.count({ where: { investorId: ctx.investor.id } })).toBe(0);
    expect((await app.prisma.orderLink.findUniqueOrThrow({ where: { id: linkId } })).status).toBe("CONFIRMED");
  });

  it("needs the bearer token on the distributor's paths and on pay, not on the public view and confirm", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    expect((await app.http("GET", `/api/order-links/v1/${link.body.id}`)).status).toBe(401);
    expect((await app.http("POST", "/api/order-links/v1", { json: lumpsumProposal(ctx.investor) })).status).toBe(401);
    expect((await app.http("POST", publicPath(link.body.id, "pay"), { json: { mode: "UPI", vpa: "a@b" } })).status).toBe(401);
    const opened = await app.http("GET", publicPath(link.body.id), { headers: { authorization: "Bearer not-a-token" } });
    expect(opened.status).toBe(200);
    expect((await app.http("POST", publicPath(link.body.id, "confirm"))).status).toBe(201);
  });

  it("answers every unknown id alike: the same 404 whatever its shape, never echoing it", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    const near = `${link.body.id.slice(0, -1)}${link.body.id.endsWith("0") ? "1" : "0"}`;
    for (const id of [near, "lnk_x", "ord_01", "x".repeat(64)]) {
      for (const [method, action] of [["GET", ""], ["POST", "confirm"]] as const) {
        const res = await app.http(method, publicPath(id, action));
        expect(res.status).toBe(404);
        expect(res.body.error).toEqual(NOT_FOUND);
        expect(res.text).not.toContain(id);
      }
    }
  });
});

describe("masking and secrecy", () => {
  it("shows the investor masked (name, PAN) and no contact or bank details on the public view", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor, { bank_account_id: ctx.investor.bankAccountId }));
    const res = await app.http("GET", publicPath(link.body.id));
    expect(res.body).toMatchObject({ investor_name: "A*** R**", investor_pan: expect.stringMatching(/^[A-Z]{2}XXXXX\d{2}[A-Z]$/) });
    for (const secret of [ctx.investor.pan, "Asha", "asha.rao@example.in", "9876543210", "001234567890", ctx.investor.bankAccountId]) {
      expect(res.text).not.toContain(secret);
    }
  });

  it("never logs a link id beyond its first 8 characters: access lines of the public and bearer paths", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    const id: string = link.body.id;
    const from = app.logs.length;
    await app.http("GET", publicPath(id));
    await app.http("GET", `/api/order-links/v1/${id}`, { token: ctx.token });
    await app.http("POST", publicPath(id, "confirm"));
    await app.http("POST", publicPath(id, "pay"), { token: ctx.token, json: { mode: "UPI", vpa: "a@b" } });
    await app.http("GET", `/links/${id}`);
    const lines = app.logs.slice(from);
    const paths = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request").map((entry) => entry.path);
    const masked = `${id.slice(0, 8)}***`;
    expect(paths).toEqual([
      `/api/public/v1/order-links/${masked}`,
      `/api/order-links/v1/${masked}`,
      `/api/public/v1/order-links/${masked}/confirm`,
      `/api/public/v1/order-links/${masked}/pay`,
      `/links/${masked}`,
    ]);
    for (const line of lines) expect(line).not.toContain(id.slice(8));
  });
});
