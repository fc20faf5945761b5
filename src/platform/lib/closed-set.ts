/**
 * Closed sets of text values: each is one const tuple beside its domain, used by the repo's row type,
 * the API's zod schema and the database's CHECK constraint (a test keeps the three equal).
 */

/** Narrows a value read from the database to its closed set; a value outside it is a broken invariant, not bad input. */
export function narrowTo<const T extends readonly string[]>(values: T, value: string, column: string): T[number] {
  if ((values as readonly string[]).includes(value)) return value as T[number];
  throw new Error(`${column} holds ${JSON.stringify(value)}, which is none of ${values.join(", ")}`);
}

/** `narrowTo` for an optional column: NULL stays null. */
export function narrowOrNull<const T extends readonly string[]>(values: T, value: string | null, column: string): T[number] | null {
  return value === null ? null : narrowTo(values, value, column);
}
