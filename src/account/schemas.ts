import { z } from "zod";

export const monthUsageSchema = z.object({
  month: z.string().describe("YYYY-MM (UTC)"),
  total: z.int(),
  by_key: z.array(z.object({ key_id: z.string(), name: z.string().nullable(), prefix: z.string().nullable(), count: z.int() })),
  by_endpoint: z.array(z.object({ endpoint: z.string().describe("The data endpoint's path template, e.g. /wilayah/search"), count: z.int() })),
  by_day: z.array(z.object({ day: z.string().describe("YYYY-MM-DD (UTC)"), count: z.int() })),
});

export const usageResponse = z.object({ data: monthUsageSchema });
