/**
 * Seeded folios of the sandbox distributor's demo investors (PANs of `seed/demo-investors.ts`), reported by the sandbox
 * registrar at every holdings refresh next to the ALLOTTED orders. Units are made up; schemes are from the seed
 * scheme master. The joint folio shows that joint holdings are never served.
 */
export interface SeededFolio {
  pan: string;
  name: string;
  holding: "SINGLE" | "JOINT";
  scheme_code: string;
  folio_no: string;
  units: string;
}

export const SEEDED_FOLIOS: readonly SeededFolio[] = [
  { pan: "AAAPZ1111A", name: "Meera Iyer", holding: "SINGLE", scheme_code: "102942", folio_no: "10293847/12", units: "152.345" },
  { pan: "AAAPZ1111A", name: "Meera Iyer", holding: "SINGLE", scheme_code: "122639", folio_no: "PP1234567", units: "420.100" },
  { pan: "AAAPZ1111A", name: "Meera Iyer", holding: "SINGLE", scheme_code: "112278", folio_no: "91029384756", units: "800.000" },
  { pan: "AAAPZ1111A", name: "Meera Iyer", holding: "JOINT", scheme_code: "120166", folio_no: "KM88776655", units: "55.500" },
  { pan: "AAAPZ2222B", name: "Kabir Shah", holding: "SINGLE", scheme_code: "101762", folio_no: "1876543/21", units: "12.500" },
];
