import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findPrismaCalls, mayCallPrisma, modelDelegates, strayPrismaCalls } from "../scripts/prisma-calls.js";

const delegates = modelDelegates(readFileSync("prisma/schema.prisma", "utf8"));

describe("Prisma only in *.repo.ts and src/platform/db/ (scripts/prisma-calls.ts, part of npm run lint:deps)", () => {
  it("reads the model delegates from the schema", () => {
    expect(delegates).toEqual(expect.arrayContaining(["order", "orderInstallment", "webhookDelivery", "sandboxExchangeRecord"]));
  });

  it("finds delegate calls on any receiver, delegates on a client, and raw SQL, each by line", () => {
    const source = [
      "const a = await services.prisma.order.findMany({ where: {} });",
      "await tx.payment",
      "  .updateMany({ where: {} });",
      "const d = tx.webhookDelivery;",
      "await this.db.sandboxExchangeRecord.upsert({});",
      "await db.$queryRawUnsafe(`SELECT 1`);",
      "await tx.$executeRaw`DELETE FROM x`;",
    ].join("\n");
    expect(findPrismaCalls(source, delegates).map((c) => c.line)).toEqual([1, 2, 4, 5, 6, 7]);
  });

  it("lets a service open a transaction, and ignores comments and plain fields", () => {
    const source = [
      "return db.$transaction(async (tx) => repo.moveOrder(tx, id));",
      "// tx.order.updateMany is in the repo",
      " * services.prisma.order.findMany, see the repo",
      "const status = order.status; const event = input.event; row.payment.id;",
    ].join("\n");
    expect(findPrismaCalls(source, delegates)).toEqual([]);
  });

  it("allows repos, db/ and the generated client", () => {
    expect(["src/domains/orders/orders.repo.ts", "src/platform/db/client.ts", "src/generated/prisma/client.ts"].every(mayCallPrisma)).toBe(true);
    expect(["src/domains/orders/orders.service.ts", "src/domains/orders/jobs/dispatch.ts", "src/seed/sandbox.ts"].some(mayCallPrisma)).toBe(false);
  });

  it("src/ has no Prisma call outside them", () => {
    expect(strayPrismaCalls()).toEqual([]);
  });
});
