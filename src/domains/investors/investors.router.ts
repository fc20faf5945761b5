import type { TagDoc } from "../../platform/openapi/docs.js";
import { EXAMPLE_PLACEHOLDERS as P, IDEMPOTENCY_CONFLICT, PATH_ID } from "../shared/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import {
  BankAccountInput,
  CreateInvestorRequest,
  InvestorId,
  InvestorPage,
  InvestorView,
  ListInvestorsQuery,
  SyncRequest,
  SyncResponse,
} from "./investors.schemas.js";
import { addBankAccount, deleteBankAccount } from "./bank-accounts.service.js";
import { PatchInvestorRequest } from "./changes.schemas.js";
import { patchInvestor } from "./changes.service.js";
import { ConsentIdInput, ConsentView, OptOutInput } from "./consents.schemas.js";
import { createOptOut, getOptOut } from "./consents.service.js";
import { createInvestor, getInvestor, listInvestors, syncInvestors } from "./investors.service.js";
import { z } from "zod";

export const INVESTORS_TAG: TagDoc = {
  name: "investors",
  description: "Investors (UCC) with their investment accounts and bank accounts; registration with the exchange.",
};

export const investorsRouter = router({
  create: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/investors/v1" },
      docs: {
        tag: INVESTORS_TAG,
        summary: "Create an investor, its investment account and bank accounts; registers the UCC with the exchange",
        description:
          "Answers 201 with the masked investor (status PENDING). Registration with the exchange is asynchronous: " +
          "watch `status` (PENDING -> REGISTERED | REJECTED) or the investor.* webhooks. The same PAN twice is 409 CONFLICT. " +
          "Send an Idempotency-Key header to make retries safe.",
        created:
          "The investor was created (status PENDING), with its investment account and bank accounts. A repeat with the same " +
          "Idempotency-Key answers the same 201.",
        conflict: `Conflict: an investor with this PAN is already yours (CONFLICT: use that investor, its id is in the message), or ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
        examples: {
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
            nominees: [
              {
                name: "Ravi Rao", relationship: "SPOUSE", percentage: 100, date_of_birth: "1988-09-30",
                identity: { type: "PAN", number: "AAAPR4444D" },
                contact: { mobile: "9800000004", address: { line1: "12 MG Road", city: "Bengaluru", state: "KA", pincode: "560001", country: "IN" } },
              },
            ],
            client_ref: "example-investor-1",
          },
        },
      },
    })
    .input(CreateInvestorRequest)
    .output(InvestorView)
    .mutation(async ({ ctx, input }) => {
      const result = await createInvestor(ctx, ctx.caller, input, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  get: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/investors/v1/{id}" },
      docs: {
        tag: INVESTORS_TAG,
        summary: "An investor, masked, with its accounts",
        description:
          "One of your investors, masked, with its investment accounts and bank accounts (their ids are what orders and mandates name). " + PATH_ID,
      },
    })
    .input(z.strictObject({ id: InvestorId }))
    .output(InvestorView)
    .query(({ ctx, input }) => getInvestor(ctx, ctx.caller, input.id)),

  update: authedProcedure
    .meta({
      openapi: { method: "PATCH", path: "/api/investors/v1/{id}" },
      docs: {
        tag: INVESTORS_TAG,
        summary: "Change an investor's contact, address, FATCA, occupation, nominees or primary bank account",
        description:
          "Any of `contact`, `address`, `fatca`, `occupation`, `nominees`, each whole and validated as at creation, and " +
          "`bank_accounts` with `{id, is_primary}` of the investor's accounts to move the primary (exactly one after it). PAN, tax status, " +
          "holding type and the holders' identities are refused (400 field_not_allowed: a new registration is the honest answer). " +
          "A PENDING investor is changed in place (its registration sends the new details). A REGISTERED investor gets a " +
          "`pending_change` that the exchange applies or refuses (UCC modification, investor.updated or investor.update_rejected); " +
          "until then the investor keeps showing its registered details. One change at a time. " + PATH_ID +
          " Send an Idempotency-Key header to make retries safe.",
        conflict:
          `Conflict: the investor has a change the exchange has not yet decided, or is REJECTED (INVALID_STATE), or ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
        examples: {
          "application/json": {
            contact: { email: "asha.rao@example.com", mobile: "9800000004", email_relation: "SELF", mobile_relation: "SELF" },
          },
        },
      },
    })
    .input(PatchInvestorRequest)
    .output(InvestorView)
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      const result = await patchInvestor(ctx, ctx.caller, id, changes, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  optOut: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/investors/v1/{id}/nomination-opt-out" },
      docs: {
        tag: INVESTORS_TAG,
        summary: "Ask the investor to opt out of nomination: a consent link for the investor to confirm",
        description:
          "Creates a consent link (PENDING, 72 hours). Send its `url` to the investor's registered email or mobile: the investor " +
          "reads the declaration on the page and confirms it there; the evidence (time, address, user agent, declaration " +
          "version) is kept and the investor's `nomination` becomes OPTED_OUT (for a REGISTERED investor once the exchange applies " +
          "the UCC modification, a `pending_change` with the field `nomination`). " + PATH_ID +
          " Send an Idempotency-Key header to make retries safe.",
        created: "The consent link was created (PENDING): send its `url` to the investor.",
        conflict:
          "Conflict (INVALID_STATE): the investor has nominees (remove them first: PATCH with `nominees: []`), has opted out " +
          `already, is REJECTED, or has a change the exchange has not yet decided; or ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
      },
    })
    .input(OptOutInput)
    .output(ConsentView)
    .mutation(async ({ ctx, input }) => {
      const result = await createOptOut(ctx, ctx.caller, input.id, { idempotencyKey: ctx.idempotencyKey, origin: ctx.origin });
      ctx.response.status = result.status;
      return result.body;
    }),

  addBankAccount: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/investors/v1/{id}/bank-accounts" },
      docs: {
        tag: INVESTORS_TAG,
        summary: "Add a bank account to an investor",
        description:
          "One bank account, validated as at creation (its type for the tax status; not one the investor has); at most 5 in all. " +
          "A primary one becomes the investor's primary. A PENDING investor gets it at once (answered masked in `bank_accounts`); a " +
          "REGISTERED investor gets a `pending_change` (fields `bank_accounts`) that the exchange applies or refuses, keeping its " +
          "registered accounts until then. One change at a time. " + PATH_ID + " Send an Idempotency-Key header to make retries safe.",
        conflict:
          `Conflict: the investor has 5 bank accounts, or a change the exchange has not yet decided, or is REJECTED (INVALID_STATE), or ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
        examples: { "application/json": { account_type: "SB", account_number: "50001234567891", ifsc: "ICIC0000001", is_primary: false } },
      },
    })
    .input(BankAccountInput.extend({ id: InvestorId }))
    .output(InvestorView)
    .mutation(async ({ ctx, input }) => {
      const { id, ...account } = input;
      const result = await addBankAccount(ctx, ctx.caller, id, account, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  getOptOut: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/investors/v1/{id}/nomination-opt-out/{consent_id}" },
      docs: {
        tag: INVESTORS_TAG,
        summary: "A nomination opt-out's consent link",
        description: "One consent link of the investor: its status (PENDING, CONFIRMED, EXPIRED) and, once confirmed, when. " + PATH_ID,
      },
    })
    .input(ConsentIdInput)
    .output(ConsentView)
    .query(({ ctx, input }) => getOptOut(ctx, ctx.caller, input.id, input.consent_id, ctx.origin)),

  deleteBankAccount: authedProcedure
    .meta({
      openapi: { method: "DELETE", path: "/api/investors/v1/{id}/bank-accounts/{bank_account_id}" },
      docs: {
        tag: INVESTORS_TAG,
        summary: "Remove a bank account from an investor",
        description:
          "Never the only one, nor one a PENDING or REGISTERED mandate or a PENDING or ACCEPTED order names. Removing the primary " +
          "makes the oldest account left the primary. The account stops being shown and usable; orders, payments and mandates that " +
          "named it keep its id. A PENDING investor loses it at once; a REGISTERED investor gets a `pending_change` (fields " +
          "`bank_accounts`) that the exchange applies or refuses, keeping its registered accounts until then; meanwhile a new order " +
          "or mandate naming the account is refused (400), and the removal is rejected if something came to name it. One change at a time. " +
          PATH_ID + " Send an Idempotency-Key header to make retries safe.",
        notFound: "The investor, or the bank account among its accounts, is unknown or another distributor's (NOT_FOUND): check the ids.",
        conflict:
          "Conflict: the account is the investor's only one or a live mandate or order names it, or the investor has a change the " +
          `exchange has not yet decided, or is REJECTED (INVALID_STATE), or ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
      },
    })
    .input(z.strictObject({ id: InvestorId, bank_account_id: z.string().min(1).max(64).describe("The bank account's id (`bank_accounts[].id`).") }))
    .output(InvestorView)
    .mutation(async ({ ctx, input }) => {
      const result = await deleteBankAccount(ctx, ctx.caller, input.id, input.bank_account_id, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  list: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/investors/v1" },
      docs: {
        tag: INVESTORS_TAG,
        summary: "Your investors, newest first",
        description: "Your investors, newest first, filtered by `status`; page with `limit` and `cursor`. PAN, mobile, email and account numbers are masked.",
      },
    })
    .input(ListInvestorsQuery)
    .output(InvestorPage)
    .query(({ ctx, input }) => listInvestors(ctx, ctx.caller, input)),

  sync: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/investors/v1/sync" },
      docs: {
        tag: INVESTORS_TAG,
        summary: "Fetch the exchange's registration status of your PENDING investors (or one of them)",
        description:
          "Queues a status check with the exchange for your PENDING investors (or only `investor_id`): the answers move them to " +
          "REGISTERED or REJECTED and send the investor.* webhooks. Answers how many were queued.",
        notFound: "`investor_id` is unknown or another distributor's (NOT_FOUND): check the id.",
        examples: { "application/json": { investor_id: P.investorId } },
      },
    })
    .input(SyncRequest)
    .output(SyncResponse)
    .mutation(({ ctx, input }) => syncInvestors(ctx, ctx.caller, input.investor_id)),
});
