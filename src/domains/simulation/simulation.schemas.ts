import { z } from "zod";

export const SimulationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.string().describe("The id of the resource that moved."),
});

export const SimulationTarget = z.strictObject({
  id: z.string().min(1).max(64),
  remark: z.string().trim().min(1).max(200).optional().describe("The exchange's remark to report (default: a sandbox remark)."),
});
