/**
 * What the API docs of several domains say alike: the phrases of their operations' descriptions and
 * errors, and what their request examples name.
 */

/** The end of the description of an operation whose path names an id. */
export const PATH_ID = "The id is unknown or another distributor's (NOT_FOUND): check the id, and the token's distributor.";

/** The 409 of an operation that takes an Idempotency-Key (as the end of a sentence). */
export const IDEMPOTENCY_CONFLICT =
  "the Idempotency-Key was used in the last 24 hours with a different body (CONFLICT: send a new key, or the same body)";

/**
 * The placeholders the request examples name. Each example would succeed on a fresh sandbox (`npm start`)
 * once its placeholders are replaced (test/openapi-examples.test.ts posts every one):
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

/** A future date that passes "today or later" for as long as this service runs. */
export const FAR_DATE = "2099-01-05";
