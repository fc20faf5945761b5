import type { z } from "zod";

/** The meta key of a description that document.ts writes after the schema's own keywords. */
export const DESCRIPTION_AFTER = "x-description-after";

/**
 * `schema.describe(description)`, written after the schema's keywords: zod writes a nullable value's
 * description before its type (`{description, type: [..., "null"]}`), where these fields of the
 * reference have always read `{type, description}`.
 */
export function describeAfter<T extends z.ZodType>(schema: T, description: string): T {
  return schema.meta({ [DESCRIPTION_AFTER]: description });
}

/** Moves every `describeAfter` description to the end of its schema (in place). */
export function placeDescriptionsAfter(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(placeDescriptionsAfter);
  if (!node || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if (typeof schema[DESCRIPTION_AFTER] === "string") {
    const description = schema[DESCRIPTION_AFTER];
    delete schema[DESCRIPTION_AFTER];
    delete schema.description;
    schema.description = description;
  }
  for (const value of Object.values(schema)) placeDescriptionsAfter(value);
}
