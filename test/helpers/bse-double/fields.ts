import { SoapFault } from "./server.js";

/**
 * One parameter of an exchange operation as its structure document gives it: the element name (in the
 * document's order), the varchar length, whether it is mandatory, and the allowed values when the
 * document lists them.
 */
export interface FieldSpec {
  name: string;
  max: number;
  mandatory?: boolean;
  values?: readonly string[];
  /** A pattern the value must match when given (digits, dates, amounts). */
  pattern?: RegExp;
}

/**
 * The element names and their order must be exactly the document's (WCF ignores an element out of its
 * place, so the exchange would not see it): a mismatch is a SOAP fault. Answers the values by name.
 */
export function readFields(specs: readonly FieldSpec[], params: Array<[string, string]>): Map<string, string> {
  const got = params.map(([name]) => name);
  const expected = specs.map((spec) => spec.name);
  if (got.join(",") !== expected.join(",")) {
    const at = expected.findIndex((name, i) => got[i] !== name);
    throw new SoapFault(
      `The formatter threw an exception while trying to deserialize the message: expected element '${expected[at] ?? "(end)"}' at position ${at + 1}, found '${got[at] ?? "(end)"}'.`,
    );
  }
  return new Map(params);
}

/** The exchange's checks of each value (mandatory, length, allowed values, format): the first failure's text, or null. */
export function fieldProblem(specs: readonly FieldSpec[], values: Map<string, string>): string | null {
  for (const spec of specs) {
    const value = values.get(spec.name) ?? "";
    if (value === "") {
      if (spec.mandatory) return `FAILED: ${spec.name.toUpperCase()} IS MANDATORY`;
      continue;
    }
    if (value !== value.trim()) return `FAILED: INVALID ${spec.name.toUpperCase()}`;
    if (value.length > spec.max) return `FAILED: ${spec.name.toUpperCase()} EXCEEDS ${spec.max} CHARACTERS`;
    if (spec.values && !spec.values.includes(value)) return `FAILED: INVALID ${spec.name.toUpperCase()}`;
    if (spec.pattern && !spec.pattern.test(value)) return `FAILED: INVALID ${spec.name.toUpperCase()}`;
  }
  return null;
}
