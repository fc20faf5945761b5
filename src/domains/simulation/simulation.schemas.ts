import { z } from "zod";
import { PathId, Success } from "../shared/fields.schemas.js";

export const SimulationResponse = z.object({
  success: Success,
  message: z.string().describe("What the simulation did, in words."),
  data: z.string().describe("The id of the resource that moved."),
});

export const SimulationTarget = z.strictObject({
  id: PathId,
  remark: z.string().trim().min(1).max(200).optional().describe("The remark to report (default: a sandbox remark)."),
});
