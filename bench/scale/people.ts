/**
 * Distributors (through the service, so each has its API client) and their investors: REGISTERED mostly, each
 * with its investment account and a primary bank account, personal details encrypted with the database's data
 * key as the service writes them (so GET /api/investors/v1/{id} reads them back).
 */
import type pg from "pg";
import { createDistributor } from "../../src/domains/auth/distributors.service.js";
import type { Services } from "../../src/domains/shared/services.js";
import { copyLines, row, type Progress } from "./copy.js";
import { panOf, stamp, unit } from "./ids.js";
import { DISTRIBUTOR_SHARES, accountId, bankId, distributorOfInvestor, investorId, investorTime, pick, type Scale } from "./shapes.js";

/** The ARN of the n-th generated distributor (the first holds ~70% of the data). */
export const scaleArn = (d: number) => `ARN-9${String(d + 1).padStart(5, "0")}`;

export async function createDistributors(services: Services): Promise<string[]> {
  const ids: string[] = [];
  for (let d = 0; d < DISTRIBUTOR_SHARES.length; d++) {
    ids.push((await createDistributor(services.prisma, { name: `Scale distributor ${d + 1}`, arn: scaleArn(d) })).distributor_id);
  }
  return ids;
}

const STATUSES = [["REGISTERED", 96], ["REJECTED", 2], ["PENDING", 2]] as const;

function details(n: number, dob: string): string {
  return JSON.stringify({
    primary_holder: { pan: panOf(n), name: `Investor ${n}`, date_of_birth: dob, gender: n % 2 ? "F" : "M", occupation: "PRIVATE_SECTOR_SERVICE", kyc_type: "KRA" },
    joint_holders: [],
    guardian: null,
    contact: { email: `investor${n}@example.in`, mobile: `9${String(n % 1e9).padStart(9, "0")}`, email_relation: "SELF", mobile_relation: "SELF" },
    address: { line1: `${n % 500} MG Road`, city: "Pune", state_code: "MH", pincode: "411001", country_code: "IN" },
    fatca: { occupation_type: "SERVICE", income_slab: "34", pep: "NO", source_of_wealth: "SALARY", country_of_birth: "IN", place_of_birth: "Pune", tax_resident_other_country: false },
    nominees: [{ name: `Nominee ${n}`, relationship: "SPOUSE", percentage: 100 }],
    demat: { mode: "PHYSICAL" },
  });
}

export async function copyInvestors(client: pg.Client, services: Services, distributors: string[], scale: Scale, now: number, progress: Progress): Promise<void> {
  const distributorOf = (n: number) => distributors[distributorOfInvestor(n, scale.investors)]!;
  const { cipher } = services;
  function* investors(): Generator<string> {
    for (let n = 0; n < scale.investors; n++) {
      const at = stamp(investorTime(n, scale, now));
      const status = pick(unit(n, 11), STATUSES);
      const dob = `19${60 + (n % 40)}-0${1 + (n % 9)}-1${n % 10}`;
      yield row([investorId(n, scale, now), distributorOf(n), status, cipher.lookupHash(panOf(n)), cipher.encrypt(details(n, dob)), "INDIVIDUAL", "SINGLE",
        null, `SC${String(n).padStart(8, "0")}`, status === "REJECTED" ? "PAN NOT VERIFIED" : null, at, at]);
    }
  }
  await copyLines(client, "investors", ["id", "distributor_id", "status", "pan_hash", "details_encrypted", "tax_status", "holding_type", "client_ref", "ucc_code", "provider_remark", "created_at", "updated_at"], investors(), progress);
  function* accounts(): Generator<string> {
    for (let n = 0; n < scale.investors; n++) yield row([accountId(n, scale, now), distributorOf(n), investorId(n, scale, now), "PHYSICAL", stamp(investorTime(n, scale, now))]);
  }
  await copyLines(client, "investment_accounts", ["id", "distributor_id", "investor_id", "holding_mode", "created_at"], accounts(), progress);
  // One account number per investor, encrypted (the same cipher text for all would not be the service's shape).
  function* banks(): Generator<string> {
    for (let n = 0; n < scale.investors; n++) {
      const number = String(100000000000 + n);
      yield row([bankId(n, scale, now), distributorOf(n), investorId(n, scale, now), "SB", cipher.encrypt(number), number.slice(-4), "HDFC0001234", true, stamp(investorTime(n, scale, now))]);
    }
  }
  await copyLines(client, "bank_accounts", ["id", "distributor_id", "investor_id", "account_type", "account_number_encrypted", "account_number_last4", "ifsc", "is_primary", "created_at"], banks(), progress);
}
