import type { ZodOpenApiResponseObject } from "zod-openapi";

/**
 * What the API reference says of one operation, written beside the procedure (its meta's `docs`) and
 * turned into the OpenAPI document by document.ts. Field descriptions are not here: they live on the
 * zod schemas (`.describe()`).
 */
export interface OperationDocs {
  /** The reference's section the operation is listed in. */
  tag: TagDoc;
  /** One line. */
  summary: string;
  /** What the operation does, answers and refuses. */
  description: string;
  /** The operation creates: a 201 with this description replaces the generated 200. */
  created?: string;
  /** A repeat of the creation answers 200 with the same body: that 200's description. */
  repeat?: string;
  /** Why it answers 404 besides an unknown id in the path (an id in the body, say). */
  notFound?: string;
  /** Why it answers 409. */
  conflict?: string;
  /** It honours an optional Idempotency-Key header. */
  idempotent?: true;
  /** Answers whose body or meaning differ from the shared ones of their status. */
  responses?: Partial<Record<ErrorStatus, ResponseDoc>>;
  /** The request body's example, for each media type it takes. */
  examples?: Record<string, unknown>;
  /** Other media types the success answer comes in (chosen by the Accept header), each with its body's schema. */
  alternativeContent?: Record<string, Record<string, unknown>>;
}

/** A section of the reference (an OpenAPI tag). */
export interface TagDoc {
  name: string;
  description: string;
}

/** The headers the answers carry, described once (components.headers). */
export type HeaderName = "X-Request-Id" | "RateLimit-Limit" | "RateLimit-Remaining" | "RateLimit-Reset" | "Retry-After";

export type ErrorStatus = "400" | "401" | "404" | "409" | "413" | "415" | "429" | "500" | "503";

/** An error answer of one operation: the error envelope unless `schema` gives another body. */
export interface ResponseDoc {
  description: string;
  /** Headers besides X-Request-Id, which every answer carries. */
  headers?: HeaderName[];
  /** A JSON schema of a body other than the error envelope. */
  schema?: Record<string, unknown>;
}

/**
 * An operation served outside the procedures (a binary body, say), documented by hand: its
 * parameters and request body as OpenAPI writes them (plain JSON), its success answer (a zod schema in
 * it is rendered as the procedures' are). Its errors are completed like theirs.
 */
export interface HandWrittenOperation {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: `/${string}`;
  operationId: string;
  docs: OperationDocs;
  parameters: Array<Record<string, unknown>>;
  requestBody?: { required?: boolean; content: Record<string, Record<string, unknown>> };
  success: ZodOpenApiResponseObject;
}
