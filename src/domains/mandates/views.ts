import type { MandateRow } from "./mandates.repo.js";

/** A mandate as the API shows it (`auth_url` worked out by the service). */
export type MandateView = ReturnType<typeof toView>;

export function toView(row: MandateRow, authUrl: string | null) {
  return {
    id: row.id,
    investor_id: row.investorId,
    bank_account_id: row.bankAccountId,
    bank_account_number: `XXXXXXXX${row.bankAccount.accountNumberLast4}`,
    ifsc: row.bankAccount.ifsc,
    mandate_type: row.mandateType,
    amount_limit: row.amountLimit.toNumber(),
    start_date: row.startDate.toISOString().slice(0, 10),
    end_date: row.endDate ? row.endDate.toISOString().slice(0, 10) : null,
    status: row.status,
    exchange_mandate_id: row.exchangeMandateId,
    provider_remark: row.providerRemark,
    auth_url: authUrl,
    client_ref: row.clientRef,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
