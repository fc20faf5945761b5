import { ExchangeUnavailableError, type OrderEntry, type OrderPlacement } from "../../../integrations/exchange/port.js";
import { Batcher } from "../../../platform/lib/batcher.js";
import type { Services } from "../../shared/services.js";
import { enqueue } from "../../shared/jobs/enqueue.js";
import type { TaskHandler } from "../../shared/jobs/task.js";
import { findPayoutAccount, investorDetails, uccCodesOf } from "../../investors/investors.service.js";
import { decryptDetails } from "../../investors/investors.service.js";
import { findMandateById } from "../../mandates/mandates.service.js";
import { orderDetails, targetSchemeCode } from "../order-details.js";
import type { StoredOrderDetails } from "../orders.schemas.js";
import { applyPlacements, markDispatchFailed } from "../lifecycle.js";
import { claimForDispatch, findOrdersByIds, releaseDispatchClaim, type OrderRow } from "../orders.repo.js";

/** The longest retry delay a dispatch job waits out itself (the sandbox asks for 500 ms). */
const SHORT_RETRY_MAX_MS = 1_000;

/**
 * Sends a PENDING order to the exchange. Idempotent on the order id: the exchange recognises a
 * retried placement, and the order moves once. A transport failure is retried by graphile-worker
 * (with its backoff) until the last attempt, which ends the order in FAILED. When the exchange asks for
 * a retry within a second (the sandbox's SIM:FAIL), the job waits that long and a job with the attempts
 * left replaces it at once (a later run_at would wait for the worker's next poll, seconds away).
 */
export const dispatchOrder: TaskHandler<"orders__dispatch"> = async ({ order_id }, { services, job, log }) => {
  const batch = batchersOf(services);
  const loaded = await batch.load.add(order_id);
  if (!loaded || loaded.order.status !== "PENDING" || loaded.order.exchangeOrderNumber) return;
  const { order, clientCode } = loaded;
  // Cancelled meanwhile (or taken by another path): nothing is sent. Once claimed, a cancel is refused.
  if (!(await batch.claim.add(order.id))) return;
  const details = orderDetails(order, log);
  const payout = order.orderType === "REDEMPTION" || order.orderType === "SWP" ? await findPayoutAccount(services.prisma, order.investorId, order.bankAccountId) : null;
  const contact = order.orderType === "SWP" || order.orderType === "STP" ? await investorContact(services, order.investorId) : null;
  try {
    const placement = await services.exchange.placeOrder({
      orderId: order.id,
      clientCode,
      orderType: order.orderType,
      // The exchange's own codes, chosen at placement (an order placed before they were kept names our scheme code).
      schemeCode: order.exchangeSchemeCode ?? order.schemeCode,
      toSchemeCode: order.toExchangeSchemeCode ?? targetSchemeCode(details),
      purchaseType: order.purchaseType as "FRESH" | "ADDITIONAL" | null,
      amount: order.amount?.toFixed(2) ?? null,
      units: order.units?.toFixed(3) ?? null,
      allUnits: order.allUnits,
      folioNo: order.folioNo,
      mandateId: order.mandateId,
      euin: details.euin?.code ?? null,
      euinDeclared: details.euin?.declaration ?? false,
      remarks: order.remarks,
      holdingMode: order.holdingMode,
      subBrokerArn: order.subBrokerArn,
      payoutAccountNumber: payout ? services.cipher.decrypt(payout.accountNumberEncrypted) : null,
      plan: planOf(details),
      contact,
      exchangeMandateId: order.mandateId ? ((await findMandateById(services.prisma, order.mandateId))?.exchangeMandateId ?? null) : null,
    });
    await batch.apply.add({ orderId: order.id, placement });
  } catch (error) {
    // The exchange certainly has nothing: a cancel may go through until the next attempt claims it again.
    if (error instanceof ExchangeUnavailableError && error.notPlaced) await releaseDispatchClaim(services.prisma, order.id);
    if (error instanceof ExchangeUnavailableError && job.attempts >= job.max_attempts) {
      await markDispatchFailed(services.prisma, order.id, error.message);
      log.warn({ order_id, attempts: job.attempts }, "order dispatch failed for good");
      return;
    }
    if (error instanceof ExchangeUnavailableError && error.retryAfterMs !== undefined && error.retryAfterMs <= SHORT_RETRY_MAX_MS) {
      await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs));
      // Same key: graphile-worker retires this (running) job and queues the replacement.
      await enqueue(services.prisma, "orders__dispatch", { order_id }, { jobKey: `orders__dispatch:${order_id}`, maxAttempts: job.max_attempts - job.attempts });
      log.info({ order_id, attempts: job.attempts, retry_after_ms: error.retryAfterMs }, "order dispatch retries shortly");
      return;
    }
    throw error;
  }
};

/**
 * The dispatch jobs running at the same time in a process share their database work (see Batcher): their
 * orders (with the investors' client codes) are read together, claimed together (one UPDATE), and the exchange's answers applied in one
 * transaction (applyPlacements). Each job still places its own order at the exchange, one call per order
 * under its own job (the exchange's retry contract is per order), and fails or retries alone.
 */
interface DispatchBatchers {
  load: Batcher<string, { order: OrderRow; clientCode: string } | null>;
  /** The claim just before sending (orders.repo claimForDispatch): true when the order is still PENDING and unsent. */
  claim: Batcher<string, boolean>;
  apply: Batcher<{ orderId: string; placement: OrderPlacement }, boolean>;
}
const batchers = new WeakMap<Services, DispatchBatchers>();

function batchersOf(services: Services): DispatchBatchers {
  let found = batchers.get(services);
  if (!found) {
    const db = services.prisma;
    found = {
      load: new Batcher(async (ids) => {
        const orders = new Map((await findOrdersByIds(db, ids)).map((o) => [o.id, o]));
        const codes = await uccCodesOf(db, [...orders.values()].map((o) => o.investorId));
        return ids.map((id) => {
          const order = orders.get(id);
          if (!order) return null;
          const clientCode = codes.get(order.investorId);
          if (clientCode === undefined) throw new Error(`order ${id}: its investor is missing`);
          return { order, clientCode };
        });
      }),
      claim: new Batcher(async (ids) => {
        const claimed = new Set(await claimForDispatch(db, ids));
        return ids.map((id) => claimed.has(id));
      }),
      apply: new Batcher((answers) => applyPlacements(db, answers)),
    };
    batchers.set(services, found);
  }
  return found;
}

/** The investor's mobile and e-mail (clear), which an SWP or STP registration sends for the investor's verification. */
async function investorContact(services: Services, investorId: string): Promise<{ mobile: string; email: string } | null> {
  const [row] = await investorDetails(services.prisma, [investorId]);
  if (!row?.detailsEncrypted) return null;
  const { mobile, email } = decryptDetails(services.cipher, { detailsEncrypted: row.detailsEncrypted }).contact;
  return { mobile, email };
}

/** A registration's plan as the exchange takes it (a top-up's sip object has none). */
function planOf(details: StoredOrderDetails): NonNullable<OrderEntry["plan"]> | null {
  const plan = details.sip ?? details.stp ?? details.swp;
  if (!plan?.frequency || !plan.start_date || !plan.installments) return null;
  const installmentDay = "installment_day" in plan ? (plan.installment_day ?? null) : null;
  return { frequency: plan.frequency, startDate: plan.start_date, installments: plan.installments, installmentDay };
}
