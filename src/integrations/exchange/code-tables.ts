/**
 * The investor-options catalog: every enumerated value `POST /api/investors/v1` accepts, with the
 * exchange's code (BSE StAR MF UCC/FATCA v3.1) beside it. This module is the one source of truth for
 * both the catalog endpoint and investor validation.
 */
export interface CatalogOption {
  value: string;
  label: string;
  /** What the exchange port sends. */
  exchangeCode: string;
}

export interface TaxStatusOption extends CatalogOption {
  group: "RESIDENT" | "NRI";
}

const TAX_STATUSES = [
  { value: "INDIVIDUAL", label: "Individual", exchangeCode: "01", group: "RESIDENT" },
  { value: "MINOR", label: "On behalf of minor", exchangeCode: "02", group: "RESIDENT" },
  { value: "NRI", label: "NRI - others", exchangeCode: "11", group: "NRI" },
] as const satisfies readonly TaxStatusOption[];

/** An option; its value keeps its literal type, so each vocabulary's values form a closed type. */
const opt = <const V extends string>(value: V, label: string, exchangeCode: string = value): CatalogOption & { value: V } => ({ value, label, exchangeCode });

export const INVESTOR_OPTIONS = {
  bank_account_types: [opt("SB", "Savings"), opt("CB", "Current"), opt("NE", "NRE"), opt("NO", "NRO")],
  contact_relations: [
    opt("SELF", "Self", "SE"),
    opt("SPOUSE", "Spouse", "SP"),
    opt("DEPENDENT_CHILD", "Dependent child", "DC"),
    opt("DEPENDENT_SIBLING", "Dependent sibling", "DS"),
    opt("DEPENDENT_PARENT", "Dependent parent", "DP"),
    opt("GUARDIAN", "Guardian", "GD"),
  ],
  demat_modes: [
    opt("PHYSICAL", "Physical (no demat account)", "P"),
    opt("CDSL", "Demat with CDSL", "D:C"),
    opt("NSDL", "Demat with NSDL", "D:N"),
  ],
  fatca_occupation_types: [
    opt("SERVICE", "Service", "S"),
    opt("BUSINESS", "Business", "B"),
    opt("OTHERS", "Others", "O"),
    opt("NOT_CATEGORISED", "Not categorised", "X"),
  ],
  genders: [opt("M", "Male"), opt("F", "Female"), opt("O", "Other")],
  guardian_relations: [
    opt("FATHER", "Father", "06"),
    opt("MOTHER", "Mother", "13"),
    opt("COURT_APPOINTED", "Court appointed legal guardian", "23"),
  ],
  holding_types: [
    opt("SINGLE", "Single", "SI"),
    opt("JOINT", "Joint", "JO"),
    opt("ANYONE_OR_SURVIVOR", "Anyone or survivor", "AS"),
  ],
  income_slabs: [
    opt("31", "Below 1 lakh"),
    opt("32", "Above 1 lakh up to 5 lakh"),
    opt("33", "Above 5 lakh up to 10 lakh"),
    opt("34", "Above 10 lakh up to 25 lakh"),
    opt("35", "Above 25 lakh up to 1 crore"),
    opt("36", "Above 1 crore"),
  ],
  kyc_types: [
    opt("KRA", "KRA compliant", "K"),
    opt("CKYC", "CKYC compliant (needs the CKYC number)", "C"),
    opt("EKYC", "Aadhaar eKYC", "E"),
  ],
  nominee_relationships: [
    opt("AUNT", "Aunt", "01"),
    opt("BROTHER_IN_LAW", "Brother-in-law", "02"),
    opt("BROTHER", "Brother", "03"),
    opt("DAUGHTER", "Daughter", "04"),
    opt("DAUGHTER_IN_LAW", "Daughter-in-law", "05"),
    opt("FATHER", "Father", "06"),
    opt("FATHER_IN_LAW", "Father-in-law", "07"),
    opt("GRANDDAUGHTER", "Granddaughter", "08"),
    opt("GRANDFATHER", "Grandfather", "09"),
    opt("GRANDMOTHER", "Grandmother", "10"),
    opt("GRANDSON", "Grandson", "11"),
    opt("MOTHER_IN_LAW", "Mother-in-law", "12"),
    opt("MOTHER", "Mother", "13"),
    opt("NEPHEW", "Nephew", "14"),
    opt("NIECE", "Niece", "15"),
    opt("SISTER", "Sister", "16"),
    opt("SISTER_IN_LAW", "Sister-in-law", "17"),
    opt("SON", "Son", "18"),
    opt("SON_IN_LAW", "Son-in-law", "19"),
    opt("SPOUSE", "Spouse", "20"),
    opt("UNCLE", "Uncle", "21"),
    opt("OTHERS", "Others", "22"),
    opt("COURT_APPOINTED_LEGAL_GUARDIAN", "Court appointed legal guardian", "23"),
  ],
  occupations: [
    opt("BUSINESS", "Business", "01"),
    opt("SERVICE", "Service", "02"),
    opt("PROFESSIONAL", "Professional", "03"),
    opt("AGRICULTURIST", "Agriculturist", "04"),
    opt("RETIRED", "Retired", "05"),
    opt("HOUSEWIFE", "Housewife", "06"),
    opt("STUDENT", "Student", "07"),
    opt("OTHERS", "Others", "08"),
    opt("DOCTOR", "Doctor", "09"),
    opt("PRIVATE_SECTOR_SERVICE", "Private sector service", "41"),
    opt("PUBLIC_SECTOR_SERVICE", "Public sector service", "42"),
    opt("FOREX_DEALER", "Forex dealer", "43"),
    opt("GOVERNMENT_SERVICE", "Government service", "44"),
  ],
  pep_options: [
    opt("YES", "Politically exposed person", "Y"),
    opt("NO", "Not a politically exposed person", "N"),
    opt("RELATED", "Related to a politically exposed person", "R"),
  ],
  tax_statuses: TAX_STATUSES,
  wealth_sources: [
    opt("SALARY", "Salary", "01"),
    opt("BUSINESS_INCOME", "Business income", "02"),
    opt("GIFT", "Gift", "03"),
    opt("ANCESTRAL_PROPERTY", "Ancestral property", "04"),
    opt("RENTAL_INCOME", "Rental income", "05"),
    opt("PRIZE_MONEY", "Prize money", "06"),
    opt("ROYALTY", "Royalty", "07"),
    opt("OTHERS", "Others", "08"),
  ],
} as const satisfies Record<string, readonly CatalogOption[]>;

export type CatalogMember = keyof typeof INVESTOR_OPTIONS;
export type CatalogValue<M extends CatalogMember> = (typeof INVESTOR_OPTIONS)[M][number]["value"];

export const CATALOG_MEMBERS = Object.keys(INVESTOR_OPTIONS) as CatalogMember[];

/** The accepted values of one vocabulary, as a tuple zod's `z.enum` takes. */
export function catalogValues<M extends CatalogMember>(member: M): [CatalogValue<M>, ...CatalogValue<M>[]] {
  return INVESTOR_OPTIONS[member].map((o) => o.value) as [CatalogValue<M>, ...CatalogValue<M>[]];
}

/** The exchange's code for an accepted value. */
export function exchangeCodeOf<M extends CatalogMember>(member: M, value: CatalogValue<M>): string {
  const option = (INVESTOR_OPTIONS[member] as readonly CatalogOption[]).find((o) => o.value === value);
  if (!option) throw new Error(`${String(value)} is not in ${member}`);
  return option.exchangeCode;
}

/**
 * The UCC occupation field takes 01-08 only: doctors and the service sub-types are reported as
 * service (02), forex dealers as business (01).
 */
export function uccOccupationCode(value: CatalogValue<"occupations">): string {
  const code = exchangeCodeOf("occupations", value);
  if (code === "43") return "01";
  if (code === "09" || code.startsWith("4")) return "02";
  return code;
}

/** The public form of the catalog: `{value, label}` per element, tax statuses with `group`. */
export function publicCatalog() {
  const strip = (options: readonly CatalogOption[]) => options.map(({ value, label }) => ({ value, label }));
  const catalog = Object.fromEntries(CATALOG_MEMBERS.map((m) => [m, strip(INVESTOR_OPTIONS[m])])) as Record<
    CatalogMember,
    Array<{ value: string; label: string }>
  >;
  return {
    ...catalog,
    tax_statuses: INVESTOR_OPTIONS.tax_statuses.map(({ value, label, group }) => ({ value, label, group })),
  };
}
