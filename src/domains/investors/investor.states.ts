import { catalogValues, type CatalogValue } from "../../integrations/exchange/code-tables.js";

/** investors.status: a registration at the exchange (the database checks the same list). */
export const INVESTOR_STATUSES = ["PENDING", "REGISTERED", "REJECTED"] as const;
export type InvestorStatus = (typeof INVESTOR_STATUSES)[number];

/** investor_changes.status: a change of a REGISTERED investor sent to the exchange (the database checks the same list). */
export const INVESTOR_CHANGE_STATUSES = ["PENDING", "APPLIED", "REJECTED"] as const;
export type InvestorChangeStatus = (typeof INVESTOR_CHANGE_STATUSES)[number];

/*
 * Columns that hold an investor-options catalog value: the catalog is their one list, and the database
 * checks it too, so a value added to the catalog needs a migration changing the constraint.
 */

/** investors.tax_status. */
export const TAX_STATUSES = catalogValues("tax_statuses");
export type TaxStatus = CatalogValue<"tax_statuses">;

/** investors.holding_type. */
export const HOLDING_TYPES = catalogValues("holding_types");
export type HoldingType = CatalogValue<"holding_types">;

/** investment_accounts.holding_mode and orders.holding_mode: the demat mode (physical, or a depository). */
export const HOLDING_MODES = catalogValues("demat_modes");
export type HoldingMode = CatalogValue<"demat_modes">;

/** bank_accounts.account_type. */
export const BANK_ACCOUNT_TYPES = catalogValues("bank_account_types");
export type BankAccountType = CatalogValue<"bank_account_types">;
