import type { BrokerChangeRow } from "./broker-changes.repo.js";

export type BrokerChangeView = ReturnType<typeof toBrokerChangeView>;

/** A request as its resource shows it, with its investor's masked PAN and its signed form's metadata (never the bytes). */
export function toBrokerChangeView(row: BrokerChangeRow, maskedPan: string) {
  return {
    id: row.id,
    investor_id: row.investorId,
    pan: maskedPan,
    amc_code: row.amcCode,
    folio_no: row.folioNo,
    auth_mode: row.authMode,
    status: row.status,
    broker_code: row.brokerCode,
    client_ref: row.clientRef,
    euin: row.euin,
    sub_broker_code: row.subBrokerCode,
    ria_code: row.riaCode,
    two_fa_channel: row.twoFaChannel,
    provider_remark: row.providerRemark,
    document: row.document && {
      content_type: row.document.contentType,
      size: row.document.size,
      sha256: row.document.sha256,
      uploaded_at: row.document.createdAt.toISOString(),
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
