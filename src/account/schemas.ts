import { z } from "zod";

export const monthUsageSchema = z.object({
  month: z.string().describe("YYYY-MM (UTC)"),
  total: z.int(),
  by_key: z.array(z.object({ key_id: z.string(), name: z.string().nullable(), prefix: z.string().nullable(), count: z.int() })),
  by_endpoint: z.array(z.object({ endpoint: z.string().describe("The data endpoint's path template, e.g. /wilayah/search"), count: z.int() })),
  by_day: z.array(z.object({ day: z.string().describe("YYYY-MM-DD (UTC)"), count: z.int() })),
});

export const usageResponse = z.object({ data: monthUsageSchema });

// ---------------------------------------------------------------- the request log (GET /user/requests)

const SURFACE_NAMES = ["rest", "mcp", "tiles", "jobs"] as const;
const isoTime = z.iso.datetime({ offset: true, error: "an ISO 8601 time, e.g. 2026-12-05T14:02:00+07:00" });

export const requestLogQuery = z.strictObject({
  request_id: z.string().trim().min(1).max(64).optional().describe("One call: the request id of its answer (`x-request-id`, or `error.request_id`)"),
  key: z.string().trim().min(1).max(64).optional().describe("Calls of one API key: its id (`key_...`)"),
  status: z
    .string()
    .regex(/^([1-5]xx|[1-5]\d\d)$/, "a status class (2xx, 4xx, 5xx) or a status (402)")
    .optional()
    .describe("A status class (`2xx`, `4xx`, `5xx`) or one status (`402`)"),
  code: z
    .string()
    .regex(/^[A-Z_]{3,40}$/, "an error code such as QUOTA_EXCEEDED")
    .optional()
    .describe("Calls that failed with this error code"),
  route: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe("One route: its path template (`/wilayah/search`), MCP tool (`wilayah_search`), `/tiles/{z}/{x}/{y}.mvt` or `/jobs`"),
  surface: z.enum(SURFACE_NAMES).optional().describe("rest, mcp, tiles (a line per map view) or jobs (a line per job created)"),
  from: isoTime.optional().describe("Calls at or after this time (ISO 8601)"),
  to: isoTime.optional().describe("Calls before this time (ISO 8601)"),
  cursor: z.string().max(200).optional().describe("`meta.next_cursor` of the previous page"),
  limit: z.int().min(1).max(100).default(50).describe("Calls per page, 1 to 100 (default 50)"),
});
export type RequestLogQuery = z.infer<typeof requestLogQuery>;

export const loggedCallSchema = z.object({
  request_id: z.string().describe("The answer's x-request-id (a map view: its first tile's)"),
  at: z.string().describe("ISO 8601, UTC: when the request arrived"),
  key: z.object({ id: z.string(), name: z.string().nullable(), prefix: z.string().nullable() }).describe("The key's label (never its secret)"),
  surface: z.enum(SURFACE_NAMES),
  method: z.string().describe("GET or POST; tools/call for MCP"),
  route: z.string(),
  status: z.int().describe("The HTTP status answered (an MCP tool error: the status the same error has over REST)"),
  error_code: z.string().nullable(),
  latency_ms: z.int().describe("From arrival to the answer (a map view: its slowest tile)"),
  data_version: z.string().nullable().describe("x-data-version of the answer"),
  ip: z.string().nullable().describe("The caller's address, for secret keys only"),
  count: z.int().describe("Requests this line stands for: 1, or the tiles of a map view"),
});

export const requestLogResponse = z.object({
  data: z.array(loggedCallSchema).describe("Newest first"),
  meta: z.object({
    next_cursor: z.string().nullable().describe("Pass as `cursor` for older calls; null on the last page"),
    limit: z.int(),
    kept_days: z.int().describe("How many days your plan keeps the log"),
  }),
});

// ---------------------------------------------------------------- alerts and limits (/user/alerts)

export const alertSettingsInput = z
  .strictObject({
    spend_limit: z
      .int()
      .min(0)
      .max(1_000_000_000)
      .nullable()
      .optional()
      .describe("Credits that may be spent beyond the quota per UTC month; past it calls get 402 SPEND_LIMIT_REACHED. 0: none; null: no limit"),
    low_credits_below: z
      .int()
      .min(1)
      .max(1_000_000_000)
      .nullable()
      .optional()
      .describe("Email and usage.threshold when the credits left fall below this; null: no such alert"),
    language: z.enum(["id", "en"]).optional().describe("The language of the account's emails"),
  })
  .refine((o) => Object.keys(o).length > 0, "nothing to change");
export type AlertSettingsInput = z.infer<typeof alertSettingsInput>;

const alertSchema = z.object({
  month: z.string(),
  kind: z.enum(["quota", "credits", "spend_limit"]),
  threshold: z.int(),
  used: z.int(),
  quota: z.int(),
  credits_left: z.int().nullable(),
  spent: z.int().nullable(),
  at: z.string().describe("ISO 8601: when it fired"),
  emailed: z.boolean().describe("Whether the email was handed to the mail provider"),
});

export const alertsResponse = z.object({
  data: z.object({
    settings: z.object({ spend_limit: z.int().nullable(), low_credits_below: z.int().nullable(), language: z.enum(["id", "en"]) }),
    month: z.string().describe("YYYY-MM (UTC)"),
    used: z.int().describe("Calls counted this month"),
    quota: z.int().describe("The plan's monthly quota"),
    spent: z.int().describe("Credits spent beyond the quota this month (and held by running jobs): what the spend limit counts"),
    alerts: z.array(alertSchema).describe("Alerts sent, newest first (at most 50)"),
  }),
});
