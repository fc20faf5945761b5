/**
 * The request bodies' examples. Each would succeed on a fresh sandbox (`npm start`) once its
 * placeholders are replaced (test/openapi-examples.test.ts posts every one):
 * - ids name the sandbox's demo investor Meera Iyer (REGISTERED, with a REGISTERED mandate; PAN
 *   AAAPZ1111A): GET /api/investors/v1?status=REGISTERED answers hers;
 * - dates are far in the future so the examples never lapse: use a date from today on;
 * - the token request names your sandbox credentials, printed at start-up.
 */
export const EXAMPLE_PLACEHOLDERS = {
  investorId: "inv_demo_meera_iyer",
  investmentAccountId: "iac_demo_meera_iyer",
  bankAccountId: "bnk_demo_meera_iyer",
  mandateId: "mdt_demo_meera_iyer",
  clientId: "mfc_your_sandbox_client_id",
  clientSecret: "mfcs_your_sandbox_client_secret",
} as const;

/** Said in the document's description, so a reader of /docs knows what to replace. */
export const EXAMPLES_NOTE =
  "Examples: ids ending in `_demo_meera_iyer` stand for the sandbox's demo investor Meera Iyer (REGISTERED, " +
  "with a REGISTERED mandate, PAN AAAPZ1111A): take the real ids from GET /api/investors/v1?status=REGISTERED. " +
  "Dates in examples are far in the future so they never lapse: use a date from today on. The token example " +
  "names the sandbox credentials `npm start` prints.";

const P = EXAMPLE_PLACEHOLDERS;

/** A future date that passes "today or later" for as long as this service runs. */
const FAR_DATE = "2099-01-05";

const token = { grant_type: "client_credentials", client_id: P.clientId, client_secret: P.clientSecret };

const lumpSum = {
  investment_account_id: P.investmentAccountId,
  order_type: "LUMPSUM_PURCHASE",
  purchase_type: "FRESH",
  scheme_code: "103166",
  amount: 5000,
  euin: { declaration: true },
  client_ref: "example-order-1",
};

/** Request body examples by operationId, then media type. */
export const REQUEST_EXAMPLES: Record<string, Record<string, unknown>> = {
  "auth-token": {
    "application/json": token,
    "application/x-www-form-urlencoded": token,
  },
  "investors-create": {
    "application/json": {
      primary_holder: { pan: "AAAPZ3333C", name: "Asha Rao", date_of_birth: "1990-04-12", gender: "F", occupation: "SERVICE", kyc_type: "KRA" },
      tax_status: "INDIVIDUAL",
      holding_type: "SINGLE",
      contact: { email: "asha@example.com", mobile: "9800000003", email_relation: "SELF", mobile_relation: "SELF" },
      address: { line1: "12 MG Road", city: "Bengaluru", state_code: "KA", pincode: "560001", country_code: "IN" },
      fatca: {
        occupation_type: "SERVICE", income_slab: "34", pep: "NO", source_of_wealth: "SALARY",
        country_of_birth: "IN", place_of_birth: "Bengaluru", tax_resident_other_country: false,
      },
      bank_accounts: [{ account_type: "SB", account_number: "50001234567890", ifsc: "HDFC0000001", is_primary: true }],
      nominees: [{ name: "Ravi Rao", relationship: "SPOUSE", percentage: 100 }],
      client_ref: "example-investor-1",
    },
  },
  "investors-sync": { "application/json": { investor_id: P.investorId } },
  "holdings-lookup": { "application/json": { pan: "AAAPZ1111A" } },
  "mandates-create": {
    "application/json": {
      investor_id: P.investorId,
      bank_account_id: P.bankAccountId,
      mandate_type: "ENACH",
      amount_limit: 50000,
      start_date: FAR_DATE,
      client_ref: "example-mandate-1",
    },
  },
  "orders-place": { "application/json": lumpSum },
  "orderLinks-create": { "application/json": { ...lumpSum, client_ref: "example-link-1", expires_in_hours: 72 } },
  "publicLinks-pay": { "application/json": { mode: "UPI", vpa: "meera@okexample" } },
  "brokerChanges-create": {
    "application/json": {
      investor_id: P.investorId,
      amc_code: "ADITYA_BIRLA_SUN_LIFE",
      folio_no: "1029384756",
      auth_mode: "TWO_FA",
      two_fa_channel: "EMAIL",
      client_ref: "example-broker-change-1",
    },
  },
  "brokerChanges-uploadImage": {
    // The part is a file; its curl command is in the operation's description.
    "multipart/form-data": { file: "(the bytes of the signed form: a PDF, JPEG or PNG)" },
  },
  "webhooks-subscribe": {
    "application/json": { url: "https://hooks.example.com/mf-events", events: ["order.*", "payment.captured"] },
  },
};

