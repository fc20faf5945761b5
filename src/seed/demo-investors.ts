import { createInvestor } from "../domains/investors/investors.service.js";
import { applyRegistration } from "../domains/investors/lifecycle.js";
import { findInvestorIdByPanHash } from "../domains/investors/investors.repo.js";
import { CreateInvestorRequest } from "../domains/investors/investors.schemas.js";
import { CreateMandateRequest } from "../domains/mandates/mandates.schemas.js";
import { applyMandateRegistration, createMandate } from "../domains/mandates/mandates.service.js";
import { todayInIndia } from "../platform/lib/india-date.js";
import type { Services } from "../domains/shared/services.js";

const REMARK = "SANDBOX: DEMO DATA";

/** Made-up people with well-formed, fictitious PANs (printed at start-up: try them with the holdings lookup). */
export const DEMO_INVESTORS = [
  { registered: true, clientRef: "demo-registered", pan: "AAAPZ1111A", name: "Meera Iyer", email: "meera@example.com", mobile: "9800000001" },
  { registered: false, clientRef: "demo-pending", pan: "AAAPZ2222B", name: "Kabir Shah", email: "kabir@example.com", mobile: "9800000002" },
];

/**
 * Demo investors for the sandbox distributor, created once through the same services as the API: one
 * REGISTERED with a REGISTERED mandate (ready for orders), one still PENDING (to try the simulation).
 */
export async function seedDemoInvestors(services: Services, distributorId: string): Promise<void> {
  const caller = { distributorId, clientId: "sandbox-seed" };
  for (const demo of DEMO_INVESTORS) {
    if (await findInvestorIdByPanHash(services.prisma, distributorId, services.cipher.lookupHash(demo.pan))) continue;
    const request = CreateInvestorRequest.parse({
      primary_holder: { pan: demo.pan, name: demo.name, date_of_birth: "1985-06-15", gender: "O", occupation: "SERVICE", kyc_type: "KRA" },
      tax_status: "INDIVIDUAL",
      holding_type: "SINGLE",
      contact: { email: demo.email, mobile: demo.mobile, email_relation: "SELF", mobile_relation: "SELF" },
      address: { line1: "1 Sandbox Street", city: "Mumbai", state_code: "MH", pincode: "400001", country_code: "IN" },
      fatca: {
        occupation_type: "SERVICE", income_slab: "34", pep: "NO", source_of_wealth: "SALARY",
        country_of_birth: "IN", place_of_birth: "Mumbai", tax_resident_other_country: false,
      },
      bank_accounts: [{ account_type: "SB", account_number: `5000${demo.mobile.slice(-6)}`, ifsc: "HDFC0000001", is_primary: true }],
      nominees: [
        {
          name: "Sandbox Nominee", relationship: "SPOUSE", percentage: 100, date_of_birth: "1985-01-01",
          identity: { type: "AADHAAR_LAST4", number: demo.mobile.slice(-4) },
          contact: { mobile: demo.mobile, address: { line1: "1 Sandbox Street", city: "Mumbai", state: "MH", pincode: "400001", country: "IN" } },
        },
      ],
      client_ref: demo.clientRef,
    });
    const { body: investor } = await createInvestor(services, caller, request, undefined);
    if (!demo.registered || !services.sandboxExchange) continue;

    await services.sandboxExchange.set("UCC", investor.ucc_code, "REGISTERED", REMARK);
    await applyRegistration(services.prisma, investor.id, { status: "REGISTERED", remark: REMARK });
    const mandateRequest = CreateMandateRequest.parse({
      investor_id: investor.id,
      bank_account_id: investor.bank_accounts[0]!.id,
      mandate_type: "ENACH",
      amount_limit: 100000,
      start_date: todayInIndia(),
      client_ref: `${demo.clientRef}-mandate`,
    });
    const { body: mandate } = await createMandate(services, caller, mandateRequest, undefined);
    await services.sandboxExchange.set("MANDATE", mandate.id, "REGISTERED", REMARK);
    await applyMandateRegistration(services.prisma, mandate.id, { status: "REGISTERED", remark: REMARK });
  }
}
