import type { Db } from "../db/client.js";
import { maskPan } from "../lib/mask.js";
import type { ExchangePort, MandateRegistration, RegistrationOutcome, UccRegistration } from "./port.js";

type Kind = "UCC" | "MANDATE";
type Status = RegistrationOutcome["status"] | "CANCELLED";

/**
 * The sandbox exchange. It keeps its own books in `sandbox_exchange_records` and is deterministic:
 * what it was sent stays PENDING until a simulation call moves it (or, with MF_SANDBOX_AUTO_REGISTER,
 * is registered on arrival). A registration sent twice is recognised by its reference.
 */
export class SandboxExchange implements ExchangePort {
  constructor(private readonly db: Db, private readonly options: { autoRegister: boolean }) {}

  async registerInvestor(ucc: UccRegistration): Promise<RegistrationOutcome> {
    // The sandbox keeps no full PAN in its books.
    const payload = { ...ucc, primaryHolder: { ...ucc.primaryHolder, pan: maskPan(ucc.primaryHolder.pan) }, jointHolders: [], guardian: null, bankAccounts: [] };
    return this.receive("UCC", ucc.clientCode, payload);
  }

  investorStatus(clientCode: string): Promise<RegistrationOutcome> {
    return this.status("UCC", clientCode);
  }

  async registerMandate(mandate: MandateRegistration): Promise<RegistrationOutcome & { exchangeMandateId: string | null }> {
    const payload = { ...mandate, bank: { ...mandate.bank, accountNumber: mandate.bank.accountNumber.slice(-4) } };
    const outcome = await this.receive("MANDATE", mandate.mandateId, payload);
    return { ...outcome, exchangeMandateId: `SBX${mandate.mandateId.slice(-10).toUpperCase()}` };
  }

  mandateStatus(mandateId: string): Promise<RegistrationOutcome> {
    return this.status("MANDATE", mandateId);
  }

  async cancelMandate(mandateId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }> {
    const record = await this.db.sandboxExchangeRecord.findUnique({ where: { kind_reference: { kind: "MANDATE", reference: mandateId } } });
    if (!record || (record.status !== "REGISTERED" && record.status !== "CANCELLED")) {
      return { cancelled: false, remark: "MANDATE NOT REGISTERED" };
    }
    await this.set("MANDATE", mandateId, "CANCELLED", "CANCELLED BY MEMBER");
    return { cancelled: true };
  }

  /** Simulation: the exchange changes its mind about a registration. */
  async set(kind: Kind, reference: string, status: Status, remark: string | null): Promise<void> {
    await this.db.sandboxExchangeRecord.upsert({
      where: { kind_reference: { kind, reference } },
      create: { kind, reference, status, remark, payload: {} },
      update: { status, remark },
    });
  }

  private async receive(kind: Kind, reference: string, payload: object): Promise<RegistrationOutcome> {
    const existing = await this.db.sandboxExchangeRecord.findUnique({ where: { kind_reference: { kind, reference } } });
    if (existing) return toOutcome(existing.status, existing.remark);
    const [status, remark] = this.options.autoRegister
      ? (["REGISTERED", "SANDBOX: REGISTERED ON RECEIPT"] as const)
      : (["PENDING", "SANDBOX: AWAITING SIMULATION"] as const);
    await this.db.sandboxExchangeRecord.create({ data: { kind, reference, status, remark, payload: JSON.parse(JSON.stringify(payload)) } });
    return toOutcome(status, remark);
  }

  private async status(kind: Kind, reference: string): Promise<RegistrationOutcome> {
    const record = await this.db.sandboxExchangeRecord.findUnique({ where: { kind_reference: { kind, reference } } });
    return record ? toOutcome(record.status, record.remark) : { status: "PENDING", remark: "SANDBOX: NOT RECEIVED" };
  }
}

function toOutcome(status: string, remark: string | null): RegistrationOutcome {
  if (status === "REGISTERED" || status === "CANCELLED") return { status: "REGISTERED", remark };
  if (status === "REJECTED") return { status: "REJECTED", remark: remark ?? "REJECTED" };
  return { status: "PENDING", remark };
}
