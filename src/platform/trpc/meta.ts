import type { OpenApiMeta } from "trpc-to-openapi";
import type { OperationDocs } from "../openapi/docs.js";

/**
 * Procedure metadata: the REST mapping (`openapi`: method, path, protect, content types), what the API
 * reference says of the operation (`docs`: every procedure of the app router has them, test/openapi-lint.test.ts),
 * and `cache: "static"` for procedures whose output depends only on their input and the deployed code (the
 * masters), which the REST layer may then serve again without running them.
 */
export type Meta = OpenApiMeta<{ cache?: "static"; docs?: OperationDocs }>;
