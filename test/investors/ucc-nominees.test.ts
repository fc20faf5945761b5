import { describe, expect, it } from "vitest";
import { CreateInvestorRequest, StoredInvestorDetails } from "../../src/domains/investors/investors.schemas.js";
import { toUccRegistration } from "../../src/domains/investors/ucc.js";
import { uccParam } from "../../src/integrations/exchange/bse/ucc-param.js";
import { validateUccParam } from "../helpers/bse-double/validate-ucc.js";
import { investorBody, nomineeBody, yearsAgo } from "../helpers/factories.js";

/** The investor's details as createInvestor stores them, from a request. */
function detailsOf(body: ReturnType<typeof investorBody>) {
  const input = CreateInvestorRequest.parse(body);
  return StoredInvestorDetails.parse({ ...input, joint_holders: [], guardian: null, nominees: input.nominees ?? [], demat: { mode: "PHYSICAL" } });
}

const ACCOUNT = [{ accountType: "SB", accountNumber: "001234567890", ifsc: "HDFC0001234", isPrimary: true }];
const investor = { taxStatus: "INDIVIDUAL", holdingType: "SINGLE" } as const;

describe("nominees on the exchange's UCC", () => {
  it("the documented fields (94-111) carry name, relation, share, minor flag, date of birth and the guardian's name; identity and contact stay out", () => {
    const details = detailsOf(
      investorBody({
        nominees: [
          nomineeBody({ percentage: 70, contact: { email: "ravi.rao@example.in", mobile: "9811122233", address: { line1: "5 Hill Road", city: "Pune", state: "MH", pincode: "411002", country: "IN" } } }),
          nomineeBody({
            name: "Kid Rao",
            relationship: "SON",
            percentage: 30,
            date_of_birth: "2019-05-06",
            identity: { type: "AADHAAR_LAST4", number: "4821" },
            guardian: { name: "Asha Rao", relationship: "MOTHER", identity: { type: "PASSPORT", number: "K1234567" } },
          }),
        ],
      }),
    );
    const ucc = toUccRegistration("MF00000001", investor, details, ACCOUNT);
    expect(ucc.nominees).toEqual([
      { name: "Ravi Rao", relation: expect.stringMatching(/^\d{2}$/), percentage: 70, minor: false, dateOfBirth: "1986-07-21", guardianName: null },
      { name: "Kid Rao", relation: expect.stringMatching(/^\d{2}$/), percentage: 30, minor: true, dateOfBirth: "2019-05-06", guardianName: "Asha Rao" },
    ]);
    const param = uccParam(ucc);
    expect(validateUccParam(param)).toBeNull();
    const fields = param.split("|");
    expect([fields[93], fields[95], fields[96]]).toEqual(["Ravi Rao", "70", "N"]);
    expect([fields[99], fields[101], fields[102], fields[103], fields[104]]).toEqual(["Kid Rao", "30", "06/05/2019", "Y", "Asha Rao"]);
    for (const absent of ["BCDPR2345K", "4821", "K1234567", "ravi.rao@example.in", "9811122233", "5 Hill Road"]) expect(param).not.toContain(absent);
  });

  it("a nominee who turns 18 today is an adult: no minor flag, no guardian", () => {
    const adult = toUccRegistration("MF00000002", investor, detailsOf(investorBody({ nominees: [nomineeBody({ date_of_birth: yearsAgo(18) })] })), ACCOUNT);
    expect(adult.nominees[0]).toMatchObject({ minor: false, guardianName: null });
  });
});
