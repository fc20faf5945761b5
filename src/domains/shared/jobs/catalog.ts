import { z } from "zod";

/**
 * Every task the worker knows, with the schema of its payload. Payloads are untyped at rest, so the
 * task list parses each one with its schema before the handler runs, and `enqueue` parses it before
 * it is stored. Task names read `domain__action`. A stored payload may also carry `traceparent` (the trace that
 * queued it, added by `jobToAdd` when tracing is on): the task list takes it off before these schemas see it.
 */
export const TASKS = {
  auth__purge_expired_tokens: z.strictObject({}),
  idempotency__purge_expired: z.strictObject({}),
  investors__register: z.strictObject({ investor_id: z.string() }),
  investors__check_status: z.strictObject({ investor_id: z.string() }),
  investors__sync_pending: z.strictObject({}),
  /** Every 10 minutes: nomination_status of investors from before the column (investors/nomination-backfill.ts). */
  investors__derive_nomination: z.strictObject({}),
  investors__send_change: z.strictObject({ change_id: z.string() }),
  mandates__register: z.strictObject({ mandate_id: z.string() }),
  mandates__check_status: z.strictObject({ mandate_id: z.string() }),
  mandates__sync_pending: z.strictObject({}),
  mandates__cancel_at_exchange: z.strictObject({ mandate_id: z.string() }),
  orders__dispatch: z.strictObject({ order_id: z.string() }),
  orders__cancel_at_exchange: z.strictObject({ order_id: z.string() }),
  orders__pause_at_exchange: z.strictObject({ pause_id: z.string() }),
  orders__sync_exchange: z.strictObject({}),
  orders__queue_lost_dispatches: z.strictObject({}),
  orders__create_installments: z.strictObject({}),
  payments__initiate: z.strictObject({ payment_id: z.string() }),
  payments__sync_pending: z.strictObject({}),
  /** Runs at the link's expires_at (job key per link). */
  order_links__expire: z.strictObject({ link_id: z.string() }),
  /** Drains every due webhook delivery (see webhooks/fan-out.ts for when one is queued). */
  /** Hands a SUBMITTED broker change request to the registrar port (job key per request). */
  broker_changes__submit: z.strictObject({ broker_change_id: z.string() }),
  /** Drains every due webhook delivery (see webhooks/fan-out.ts for when one is queued). */
  webhooks__deliver: z.strictObject({}),
  webhooks__sweep: z.strictObject({}),
  /** Daily (03:15 India): old settled deliveries and their attempts; batch size and time budget only set by tests and continuations. */
  webhooks__purge_old_deliveries: z.strictObject({
    batch_size: z.number().int().min(1).max(10_000).optional(),
    budget_ms: z.number().int().min(0).max(600_000).optional(),
  }),
  holdings__refresh: z.strictObject({}),
  /** Imports the newest scheme and SIP masters of EXCHANGE_MASTERS_DIR (crontab EXCHANGE_MASTERS_CRON). */
  masters__import_exchange: z.strictObject({}),
  /** Daily: warns while the exchange holiday calendar does not cover the next 60 days. */
  masters__check_calendar: z.strictObject({}),
  /** Daily (21:30 India): our orders of a day against the exchange's reports; `date` YYYY-MM-DD, default the previous business day. */
  reconciliations__run: z.strictObject({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional() }),
} as const;

export type TaskName = keyof typeof TASKS;
export type TaskPayload<N extends TaskName> = z.infer<(typeof TASKS)[N]>;
