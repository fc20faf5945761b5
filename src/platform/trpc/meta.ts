import type { OpenApiMeta } from "trpc-to-openapi";

/**
 * Procedure metadata: the REST mapping, and `cache: "static"` for procedures whose output depends
 * only on their input and the deployed code (the masters), which the REST layer may then serve
 * again without running them.
 */
export type Meta = OpenApiMeta<{ cache?: "static" }>;
