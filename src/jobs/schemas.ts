/** What the job routes take and answer (docs/api.md, "Bulk jobs"). */
import { z } from "zod";
import { pageMeta, pageParams } from "../lib/paging";

export const JOB_KINDS = ["address", "convert"] as const;

/** Whose codes a convert job reads. */
export const JOB_CODE_SYSTEMS = ["kemendagri", "bps"] as const;

export const createJobQuery = z.strictObject({
  kind: z
    .enum(JOB_KINDS)
    .optional()
    .describe(
      "address: free text to regions (as POST /wilayah/address); convert: codes of any edition to today's (as /wilayah/convert). Required, here or as a form field.",
    ),
  from: z
    .enum(JOB_CODE_SYSTEMS)
    .optional()
    .describe(
      "convert jobs: whose codes the file holds, kemendagri (any edition since 2015; the default) or bps (the statistics bureau's, as POST /wilayah/convert with from bps).",
    ),
  column: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "The CSV header's column (or the JSON Lines objects' field) holding the text or code. Default: `address` for address jobs, `code` for convert jobs.",
    ),
  format: z
    .enum(["csv", "jsonl"])
    .optional()
    .describe("The file's format; by default read from Content-Type (text/csv, application/x-ndjson or application/jsonl)"),
});

export const jobResultQuery = z.strictObject({
  format: z.enum(["csv", "jsonl"]).default("csv").describe("csv (the input's columns, then the answer's) or jsonl (one object per row: row, input, answer)"),
});

export const jobPaging = z.strictObject(pageParams);

const job = z.object({
  id: z.string().describe("job_..."),
  kind: z.enum(["address", "convert"]),
  from: z.enum(JOB_CODE_SYSTEMS).nullable().describe("convert jobs: whose codes the file holds; null for address jobs"),
  state: z.enum(["queued", "running", "done", "failed", "cancelled"]),
  input: z.object({ format: z.enum(["csv", "jsonl"]), column: z.string(), bytes: z.number().int(), header: z.array(z.string()).nullable() }),
  rows: z.object({
    total: z.number().int(),
    done: z.number().int().describe("Rows answered and charged"),
    warned: z.number().int().describe("Rows whose answer has a warning, no region, or (convert) an unknown code"),
  }),
  chunks: z.object({ total: z.number().int(), done: z.number().int() }),
  cost: z.object({
    calls: z.number().int().describe("One call per row"),
    credits_reserved: z.number().int().describe("Credits held at acceptance for the rows beyond the quota; what is not spent goes back when the job ends"),
  }),
  data_versions: z
    .array(z.string())
    .describe(
      "The region data version(s) the rows were answered from (the x-data-version of a single call); two when a new edition was loaded while the job ran",
    ),
  error: z.string().nullable(),
  estimated_seconds_left: z.number().int().nullable().describe("From the pace so far; null before the first chunk is done"),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  expires_at: z.string().describe("When the input and the result are deleted (7 days after the job was made)"),
  result: z.string().nullable().describe("Where to download the result, once the job is over and has rows done"),
});

export const jobResponse = z.object({ data: job });
export const jobListResponse = z.object({ data: z.array(job), meta: pageMeta });
