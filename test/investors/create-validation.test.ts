import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { investorBody, nomineeBody, randomPan, yearsAgo } from "../helpers/factories.js";

const app = useTestApp();
let token = "";

beforeAll(async () => {
  token = (await app.newDistributor()).token;
});

/** One failing example per rule: [what is wrong, the body change, the paths that must be reported]. */
const INVALID: Array<[string, (b: ReturnType<typeof investorBody>) => unknown, string[]]> = [
  ["malformed PAN", (b) => ({ ...b, primary_holder: { ...b.primary_holder, pan: "ABCDE12345" } }), ["primary_holder.pan"]],
  ["PAN with 0000", (b) => ({ ...b, primary_holder: { ...b.primary_holder, pan: "ABCPE0000F" } }), ["primary_holder.pan"]],
  ["company PAN", (b) => ({ ...b, primary_holder: { ...b.primary_holder, pan: "ABCCE1234F" } }), ["primary_holder.pan"]],
  ["unknown gender", (b) => ({ ...b, primary_holder: { ...b.primary_holder, gender: "X" } }), ["primary_holder.gender"]],
  ["unknown occupation", (b) => ({ ...b, primary_holder: { ...b.primary_holder, occupation: "ASTRONAUT" } }), ["primary_holder.occupation"]],
  ["unknown kyc type", (b) => ({ ...b, primary_holder: { ...b.primary_holder, kyc_type: "VKYC" } }), ["primary_holder.kyc_type"]],
  ["unknown tax status", (b) => ({ ...b, tax_status: "HUF" }), ["tax_status"]],
  ["unknown holding type", (b) => ({ ...b, holding_type: "TRUST" }), ["holding_type"]],
  ["unknown contact relation", (b) => ({ ...b, contact: { ...b.contact, email_relation: "FRIEND" } }), ["contact.email_relation"]],
  ["unknown income slab", (b) => ({ ...b, fatca: { ...b.fatca, income_slab: "37" } }), ["fatca.income_slab"]],
  ["unknown pep", (b) => ({ ...b, fatca: { ...b.fatca, pep: "MAYBE" } }), ["fatca.pep"]],
  ["unknown wealth source", (b) => ({ ...b, fatca: { ...b.fatca, source_of_wealth: "LOTTERY" } }), ["fatca.source_of_wealth"]],
  ["unknown fatca occupation", (b) => ({ ...b, fatca: { ...b.fatca, occupation_type: "X" } }), ["fatca.occupation_type"]],
  ["unknown country of birth", (b) => ({ ...b, fatca: { ...b.fatca, country_of_birth: "XX" } }), ["fatca.country_of_birth"]],
  ["unknown nominee relationship", (b) => ({ ...b, nominees: [nomineeBody({ relationship: "FRIEND" })] }), ["nominees[0].relationship"]],
  ["unknown bank account type", (b) => ({ ...b, bank_accounts: [{ ...b.bank_accounts[0]!, account_type: "XX" }] }), ["bank_accounts[0].account_type"]],
  ["bad IFSC", (b) => ({ ...b, bank_accounts: [{ ...b.bank_accounts[0]!, ifsc: "HDFC1234567" }] }), ["bank_accounts[0].ifsc"]],
  ["bad account number", (b) => ({ ...b, bank_accounts: [{ ...b.bank_accounts[0]!, account_number: "12-34" }] }), ["bank_accounts[0].account_number"]],
  ["bad email", (b) => ({ ...b, contact: { ...b.contact, email: "not-an-email" } }), ["contact.email"]],
  ["bad mobile", (b) => ({ ...b, contact: { ...b.contact, mobile: "12345" } }), ["contact.mobile"]],
  ["bad pincode", (b) => ({ ...b, address: { ...b.address, pincode: "011001" } }), ["address.pincode"]],
  ["unknown Indian state", (b) => ({ ...b, address: { ...b.address, state_code: "ZZ" } }), ["address.state_code"]],
  ["future date of birth", (b) => ({ ...b, primary_holder: { ...b.primary_holder, date_of_birth: "2999-01-01" } }), ["primary_holder.date_of_birth"]],
  ["impossible date", (b) => ({ ...b, primary_holder: { ...b.primary_holder, date_of_birth: "1990-02-30" } }), ["primary_holder.date_of_birth"]],
  ["NRO account for a resident", (b) => ({ ...b, bank_accounts: [{ ...b.bank_accounts[0]!, account_type: "NO" }] }), ["bank_accounts[0].account_type"]],
  ["savings account for an NRI", (b) => ({ ...b, tax_status: "NRI" }), ["bank_accounts[0].account_type"]],
  ["no primary bank account", (b) => ({ ...b, bank_accounts: [{ ...b.bank_accounts[0]!, is_primary: false }] }), ["bank_accounts"]],
  ["two primary bank accounts", (b) => ({ ...b, bank_accounts: [b.bank_accounts[0]!, { ...b.bank_accounts[0]!, account_number: "55556666" }] }), ["bank_accounts"]],
  ["minor without guardian", (b) => ({ ...b, tax_status: "MINOR", primary_holder: { ...b.primary_holder, date_of_birth: yearsAgo(10) } }), ["guardian"]],
  ["minor aged 18", (b) => ({ ...b, tax_status: "MINOR", guardian: { name: "G H", pan: randomPan(), relationship: "FATHER" } }), ["primary_holder.date_of_birth"]],
  ["adult under 18", (b) => ({ ...b, primary_holder: { ...b.primary_holder, date_of_birth: yearsAgo(17) } }), ["primary_holder.date_of_birth"]],
  ["guardian for an adult", (b) => ({ ...b, guardian: { name: "G H", pan: randomPan(), relationship: "FATHER" } }), ["guardian"]],
  ["CKYC without number", (b) => ({ ...b, primary_holder: { ...b.primary_holder, kyc_type: "CKYC" } }), ["primary_holder.ckyc_number"]],
  ["CKYC number of 13 digits", (b) => ({ ...b, primary_holder: { ...b.primary_holder, kyc_type: "CKYC", ckyc_number: "1234567890123" } }), ["primary_holder.ckyc_number"]],
  ["nominees not adding to 100", (b) => ({ ...b, nominees: [nomineeBody({ percentage: 50 }), nomineeBody({ percentage: 40 })] }), ["nominees"]],
  ["four nominees", (b) => ({ ...b, nominees: [1, 2, 3, 4].map(() => nomineeBody({ percentage: 25 })) }), ["nominees"]],
  ["minor nominee without guardian", (b) => ({ ...b, nominees: [nomineeBody({ relationship: "SON", date_of_birth: yearsAgo(5) })] }), ["nominees[0].guardian"]],
  ["joint holding with one holder", (b) => ({ ...b, holding_type: "JOINT" }), ["joint_holders"]],
  ["single holding with a joint holder", (b) => ({ ...b, joint_holders: [{ pan: randomPan(), name: "J K", date_of_birth: "1980-01-01", kyc_type: "KRA" }] }), ["joint_holders"]],
  ["four holders", (b) => ({ ...b, holding_type: "ANYONE_OR_SURVIVOR", joint_holders: [1, 2, 3].map(() => ({ pan: randomPan(), name: "J K", date_of_birth: "1980-01-01", kyc_type: "KRA" })) }), ["joint_holders"]],
  ["physical with depository details", (b) => ({ ...b, demat: { mode: "PHYSICAL", client_id: "1234567890123456" } }), ["demat"]],
  ["CDSL with a short client id", (b) => ({ ...b, demat: { mode: "CDSL", client_id: "12345678" } }), ["demat.client_id"]],
  ["NSDL with a bad DP id", (b) => ({ ...b, demat: { mode: "NSDL", dp_id: "XX300123", client_id: "12345678" } }), ["demat.dp_id"]],
  ["NSDL with a bad client id", (b) => ({ ...b, demat: { mode: "NSDL", dp_id: "IN300123", client_id: "1234" } }), ["demat.client_id"]],
  ["missing contact", (b) => ({ ...b, contact: undefined }), ["contact"]],
  ["unknown field", (b) => ({ ...b, favourite_colour: "blue" }), ["favourite_colour"]],
  ["unknown nested field", (b) => ({ ...b, address: { ...b.address, floor: 3 } }), ["address.floor"]],
];

describe("POST /api/investors/v1 refuses", () => {
  it.each(INVALID)("%s", async (_name, change, paths) => {
    const before = await app.prisma.investor.count();
    const res = await app.http("POST", "/api/investors/v1", { token, json: change(investorBody()) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    const reported = (res.body.error.details as Array<{ path: string }>).map((d) => d.path);
    for (const path of paths) expect(reported).toContain(path);
    expect(await app.prisma.investor.count()).toBe(before);
  });
});
