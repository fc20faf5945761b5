import { z } from "zod";
import { describeAfter } from "../../platform/openapi/fields.js";

/** Fields that mean the same in every domain, described once: the answers' ids and times, a list's status filter, a path's id. */

export const Success = z.literal(true).describe("Always true on a success; false in the error envelope.");

export const ResourceId = z.string().describe("The resource's id; its prefix names its kind (`inv_`, `ord_`, `mdt_`...).");

export const InvestorIdView = z.string().describe("The investor's id (`inv_`...).");

export const ClientRefView = describeAfter(z.string().nullable(), "Your own reference, echoed in responses; unique per distributor where the operation says so.");

export const CreatedAt = z.string().describe("When the resource was created (ISO 8601, UTC).");

export const UpdatedAt = z.string().describe("When the resource last changed (ISO 8601, UTC).");

/** A resource's status, whatever its closed set. */
export const state = <T extends z.ZodType>(status: T) =>
  status.describe("The resource's state; the values are listed in the schema, their moves in docs/decisions.md.");

/** A list filter on a resource's status (on the `.optional()`: the query parameter's description). */
export const stateFilter = <T extends z.ZodType>(status: T) => status.optional().describe("Only resources in this state.");

/** A path's id (kept off its schema: the parameter's description). */
export const PathId = z
  .string()
  .min(1)
  .max(64)
  .meta({ param: { description: "The resource's id, as its creation answered it." } });
