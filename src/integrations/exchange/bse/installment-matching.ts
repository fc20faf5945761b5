import type { InstallmentOrderRef } from "../port.js";
import type { BseContext } from "./bse-context.js";
import type { ChildOrder, ChildOrdersApi, SystematicPlanType } from "./child-orders.js";
import { insertChildOrder, matchedNumbers } from "./child-orders.repo.js";
import { isCancelKind, refsOfOrders, type BseOrderRef } from "./order-refs.repo.js";
import type { PlanRequest } from "./plan-entry.js";

/**
 * The exchange's child orders of our installments (services §7): per registration and due day, the
 * child orders the exchange generated that no installment has taken yet, in order-number order, go to
 * our installments in installment order; each match is recorded (bse_child_orders), so the reports
 * follow it. An SWP's child orders are redemptions (the redemption statement allots them); an STP's
 * come in switch-out/switch-in pairs: the installment takes the switch-out's number and its allotment is
 * the switch-in's row, as for a switch. Registrations the exchange never took are left alone.
 */
export async function matchInstallmentsToChildOrders(
  ctx: BseContext,
  childOrdersApi: ChildOrdersApi,
  installments: InstallmentOrderRef[],
): Promise<Array<{ orderId: string; exchangeOrderNumber: string }>> {
  const refs = await refsOfOrders(ctx.db, [...new Set(installments.map((i) => i.registrationOrderId))]);
  const registrations = new Map<string, BseOrderRef>();
  for (const ref of refs) if (!isCancelKind(ref.kind)) registrations.set(ref.orderId, ref);
  const groups = new Map<string, InstallmentOrderRef[]>();
  for (const installment of installments) {
    const key = `${installment.registrationOrderId} ${installment.dueDate}`;
    groups.set(key, [...(groups.get(key) ?? []), installment]);
  }
  const matches: Array<{ orderId: string; exchangeOrderNumber: string }> = [];
  for (const group of groups.values()) {
    const { registrationOrderId, clientCode, dueDate } = group[0]!;
    const registration = registrations.get(registrationOrderId);
    const planType = registration?.outcome === "ACCEPTED" ? childPlanTypeOf(registration) : null;
    if (!registration || !planType) continue;
    const taken = await matchedNumbers(ctx.db, registrationOrderId);
    const children = (await childOrdersApi.childOrders({ clientCode, planType, registrationNo: registration.exchangeOrderNumber!, date: dueDate }))
      .filter((c) => !taken.has(c.orderNumber))
      .sort((a, b) => Number(a.orderNumber) - Number(b.orderNumber));
    const installmentOrders = planType === "STP" ? switchPairs(children) : children.map((c) => ({ ...c, switchIn: null }));
    for (const installment of [...group].sort((a, b) => a.installmentNo - b.installmentNo)) {
      const child = installmentOrders.shift();
      if (!child) break;
      const row = {
        orderId: installment.orderId, registrationOrderId, exchangeOrderNumber: child.orderNumber, switchInOrderNumber: child.switchIn,
        orderDate: new Date(`${dueDate}T00:00:00Z`), buySell: child.buySell,
      };
      if (await insertChildOrder(ctx.db, row)) matches.push({ orderId: installment.orderId, exchangeOrderNumber: child.orderNumber });
    }
  }
  return matches;
}

/** The plan type ChildOrderDetails is asked with for a registration whose child orders are matched, or null. */
function childPlanTypeOf(registration: BseOrderRef): SystematicPlanType | null {
  if (registration.kind === "SIP" || registration.kind === "SWP" || registration.kind === "STP") return registration.kind;
  if (registration.kind !== "XSIP") return null;
  const isIsip = (registration.request as PlanRequest | null)?.some(([name, value]) => name === "Param2" && !!value) ?? false;
  return isIsip ? "ISIP" : "XSIP";
}

/**
 * An STP's child orders (in order-number order) as installments: each switch-out (R) with the first
 * switch-in (P) numbered after it; a switch-out whose switch-in is not listed yet waits for the next pass.
 */
function switchPairs(children: ChildOrder[]): Array<ChildOrder & { switchIn: string | null }> {
  const ins = children.filter((c) => c.buySell === "P");
  return children.flatMap((out) => {
    if (out.buySell !== "R") return [];
    const at = ins.findIndex((c) => Number(c.orderNumber) > Number(out.orderNumber));
    if (at < 0) return [];
    const [into] = ins.splice(at, 1);
    return [{ ...out, switchIn: into!.orderNumber }];
  });
}
