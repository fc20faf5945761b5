/**
 * POST /api/orders/v1/ (a lump-sum purchase for a registered investor) against a one-row insert
 * through the same stack, at 50 connections. Target: ratio of requests/s >= 0.4.   npm run bench:orders
 */
import { investorBody } from "../test/helpers/factories.js";
import { runPostBenchmark } from "./post-vs-insert.js";

await runPostBenchmark(
  {
    name: "order placement",
    path: "/api/orders/v1/",
    connections: 50,
    target: 0.4,
    pgPort: 54394,
    setup: async (runtime, distributorId) => {
      const { CreateInvestorRequest } = await import("../src/investors/investors.schemas.js");
      const { applyRegistration, createInvestor } = await import("../src/investors/investors.service.js");
      const { prisma } = runtime.services;
      await prisma.scheme.upsert({
        where: { schemeCode: "BENCH01" },
        create: { schemeCode: "BENCH01", name: "Bench Scheme", amcCode: "BENCH", amcName: "Bench Mutual Fund", category: "Equity Scheme", schemeType: "Open Ended Schemes", minPurchaseAmount: "1000.00", purchaseMultiple: "1.00" },
        update: {},
      });
      const caller = { distributorId, clientId: "bench" };
      const { body: investor } = await createInvestor(runtime.services, caller, CreateInvestorRequest.parse(investorBody()), undefined);
      await applyRegistration(prisma, investor.id, { status: "REGISTERED", remark: "BENCH" });
      return { accountId: investor.investment_account_id };
    },
    body: ({ accountId }) => () => ({
      investment_account_id: accountId,
      order_type: "LUMPSUM_PURCHASE",
      scheme_code: "BENCH01",
      amount: 5000,
      purchase_type: "FRESH",
    }),
  },
  new URL(import.meta.url).pathname,
);
