import { CreateInvestorRequest } from "../../src/domains/investors/investors.schemas.js";
import { createInvestor } from "../../src/domains/investors/investors.service.js";
import { applyRegistration } from "../../src/domains/investors/lifecycle.js";
import { investorBody } from "../../test/helpers/factories.js";
import type { LumpSumBody } from "./raw-sql.js";
import type { Stack } from "./stack.js";

/**
 * What a lump-sum placement needs, made once per benchmark: a scheme with its exchange code (the exchange's
 * scheme master would give it: placement names and checks it) and a REGISTERED investor of the stack's
 * distributor. Answers the investor and the placement's body.
 */
export async function lumpSumFixture(stack: Pick<Stack, "services" | "distributorId">): Promise<{ investorId: string; body: LumpSumBody }> {
  const { services, distributorId } = stack;
  await services.prisma.scheme.create({
    data: { schemeCode: "BENCH01", isinGrowth: "INT00BENCH01", name: "Bench Scheme", amcCode: "BENCH", amcName: "Bench Mutual Fund", category: "Equity Scheme", schemeType: "Open Ended Schemes", minPurchaseAmount: "1000.00", purchaseMultiple: "1.00" },
  });
  await services.prisma.exchangeScheme.create({
    data: {
      code: "BSEBENCH01", isin: "INT00BENCH01", name: "Bench Scheme", transactionMode: "BOTH", purchaseAllowed: true, redemptionAllowed: true,
      sipAllowed: true, stpAllowed: true, swpAllowed: true, switchAllowed: true, minPurchaseAmount: "1000.00", purchaseMultiple: "1.00",
    },
  });
  const { body: investor } = await createInvestor(services, { distributorId, clientId: "bench" }, CreateInvestorRequest.parse(investorBody()), undefined);
  await applyRegistration(services.prisma, investor.id, { status: "REGISTERED", remark: "BENCH" });
  return {
    investorId: investor.id,
    body: { investment_account_id: investor.investment_account_id, order_type: "LUMPSUM_PURCHASE", scheme_code: "BENCH01", amount: 5000, purchase_type: "FRESH" },
  };
}
