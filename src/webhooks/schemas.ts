/** What the webhook routes and the portal take and answer, and the payloads we send (docs/api.md, "Webhooks"). */
import { z } from "zod";
import { pageMeta, pageParams } from "../lib/paging";

export const EVENT_TYPES = ["edition.published", "regions.changed", "job.completed", "job.failed", "usage.threshold"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent only by POST /user/webhooks/:id/test; not subscribable. */
export const TEST_EVENT = "webhook.test";

export const MAX_REGIONS = 20;

/** A region code prefix, dotted: a provinsi (91), kabupaten/kota (92.01), kecamatan (32.73.09) or kelurahan/desa (32.73.09.1001). */
const regionPrefix = z
  .string()
  .trim()
  .regex(/^\d{2}(\.\d{2}(\.\d{2}(\.\d{4})?)?)?$/, "a dotted region code: 91, 92.01, 32.73.09 or 32.73.09.1001")
  .describe("A dotted region code prefix: 91, 92.01, 32.73.09, 32.73.09.1001");

const url = z.string().trim().min(1).max(2000).describe("Where to POST: https (http only on a development deployment); not a private address");
const events = z
  .array(z.enum(EVENT_TYPES))
  .min(1, "at least one event")
  .max(EVENT_TYPES.length)
  .refine((e) => new Set(e).size === e.length, "each event once")
  .describe(
    "edition.published (a new edition of the code list), regions.changed (its changes in your regions), job.completed and job.failed (your bulk jobs), usage.threshold (your account's alerts: 80% and 100% of the quota, credits below your level, the spend limit reached)",
  );
const regions = z
  .array(regionPrefix)
  .max(MAX_REGIONS, `at most ${MAX_REGIONS} region prefixes`)
  .refine((r) => new Set(r).size === r.length, "each region once")
  .describe(
    "regions.changed only: the region code prefixes you care about (a change matches when code_before or code_after starts with one). Empty: every region.",
  );

export const createEndpointInput = z.strictObject({ url, events, regions: regions.default([]), enabled: z.boolean().default(true) });
export const updateEndpointInput = z
  .strictObject({ url: url.optional(), events: events.optional(), regions: regions.optional(), enabled: z.boolean().optional() })
  .refine((o) => Object.keys(o).length > 0, "nothing to change");
export type CreateEndpointInput = z.infer<typeof createEndpointInput>;
export type UpdateEndpointInput = z.infer<typeof updateEndpointInput>;

export const endpointSchema = z
  .object({
    id: z.string().describe("`wh_...`"),
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    regions: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().describe("Why we disabled it (3 days of failed deliveries); null when you did, or it is enabled"),
    failing_since: z.string().nullable().describe("ISO 8601: the first failed attempt of the current run of failures; null after a success"),
    created_at: z.string().describe("ISO 8601, UTC"),
    updated_at: z.string(),
  })
  .meta({
    example: {
      id: "wh_Qm3xT9vB2sLp8dKe",
      url: "https://example.com/hooks/wilayah",
      events: ["edition.published", "regions.changed"],
      regions: ["91", "92.01"],
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      created_at: "2026-11-22T05:00:00.000Z",
      updated_at: "2026-11-22T05:00:00.000Z",
    },
  });

export const endpointResponse = z.object({ data: endpointSchema });
export const endpointListResponse = z.object({ data: z.array(endpointSchema) });
export const endpointWithSecretResponse = z.object({
  data: endpointSchema.extend({
    secret: z.string().describe("The signing secret (`whsec_...`): shown only in this answer. Verify deliveries with it (Standard Webhooks)."),
  }),
});

export const attemptSchema = z.object({
  attempt: z.int().describe("1 for the first try of this message, counting retries"),
  at: z.string().describe("ISO 8601: when the attempt started"),
  outcome: z.enum(["started", "ok", "failed"]).describe("started: the attempt never finished (the Worker stopped); the queue tries again"),
  status_code: z.int().nullable(),
  error: z.string().nullable(),
  latency_ms: z.int().nullable(),
});

export const deliverySchema = z.object({
  id: z.string().describe("The message id: the `webhook-id` header, the same on every attempt"),
  event_type: z.string(),
  status: z.enum(["pending", "delivered", "dead"]).describe("pending: queued or waiting for a retry; dead: the retries are spent (a dead letter)"),
  attempts: z.int(),
  last_status_code: z.int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  attempt_log: z.array(attemptSchema).describe("Every attempt, oldest first"),
});
export const deliveryListResponse = z.object({ data: z.array(deliverySchema), meta: pageMeta });
export const deliveryResponse = z.object({ data: deliverySchema });
export const deliveryPaging = z.strictObject({ ...pageParams });

// ---------------------------------------------------------------- payloads (what receivers get)

const changeItem = z.object({
  kind: z
    .enum(["edition", "correction"])
    .describe("edition: a change between editions (always, here: corrections from reports are listed by GET /api/v1/wilayah/changes, not announced)"),
  edition: z.string(),
  regulation: z.string(),
  change: z.string().describe("created, retired, renamed, recoded, split, merged"),
  level: z.string(),
  code_before: z.string().nullable(),
  name_before: z.string().nullable(),
  code_after: z.string().nullable(),
  name_after: z.string().nullable(),
  basis: z.string().nullable(),
  confidence: z.number().nullable(),
});

const counts = z.object({
  total: z.int(),
  by_change: z.record(z.string(), z.int()).describe("created, retired, renamed, recoded, split, merged"),
  by_level: z.record(z.string(), z.int()).describe("provinsi, kabupaten, kecamatan, kelurahan"),
});

export const editionPublishedData = z.object({
  edition: z.string(),
  regulation: z.string(),
  previous_edition: z.string().nullable(),
  counts,
  changes: z.array(changeItem).describe("The first changes (at most 50), in the order of GET /api/v1/wilayah/changes"),
  changes_url: z.string().describe("The rest: /api/v1/wilayah/changes?from=<previous>&to=<edition> (paged, needs an API key)"),
});

export const regionsChangedData = z.object({
  edition: z.string(),
  previous_edition: z.string().nullable(),
  regions: z.array(z.string()).describe("The endpoint's region prefixes (empty: every region)"),
  total: z.int().describe("Changes of the edition that match"),
  changes: z.array(changeItem).describe("The matching changes (at most 200)"),
  truncated: z.boolean(),
  changes_url: z.string(),
});

/** job.completed / job.failed: the account's bulk job as GET /api/v1/jobs/:id shows it, in short. */
export const jobEventData = z.object({
  job: z.object({
    id: z.string().describe("`job_...`"),
    kind: z.enum(["address", "convert"]),
    state: z.enum(["done", "failed"]),
    rows: z.object({ total: z.int(), done: z.int(), warned: z.int() }),
    error: z.string().nullable().describe("Why it failed (job.failed)"),
    finished_at: z.string().nullable(),
    result_url: z.string().nullable().describe("Where to download the result (needs an API key of the account)"),
  }),
});
export type JobEventData = z.infer<typeof jobEventData>;

/** usage.threshold: one of the account's alerts, once per threshold per UTC month (docs/api.md, "Alerts and the spend limit"). */
export const usageThresholdData = z.object({
  month: z.string().describe("YYYY-MM (UTC): the month the alert belongs to"),
  kind: z
    .enum(["quota", "credits", "spend_limit"])
    .describe(
      "quota: the month's calls reached `threshold`% of the plan's quota; credits: the credits left fell below `threshold`; spend_limit: calls were refused at the monthly spend limit (`threshold` credits)",
    ),
  threshold: z.int().describe("80 or 100 (percent of the quota); the credit level you set; your spend limit"),
  used: z.int().describe("Calls counted this month when it fired"),
  quota: z.int().describe("The plan's monthly quota"),
  credits_left: z.int().nullable().describe("credits: the credits left when it fired; else null"),
  spent: z.int().nullable().describe("credits, spend_limit: credits spent beyond the quota this month; else null"),
  portal_url: z.string().nullable().describe("Where to see usage, alerts and limits (null when the deployment does not say its address)"),
});
export type UsageThresholdData = z.infer<typeof usageThresholdData>;

export const webhookPayload = z
  .object({
    type: z.enum([...EVENT_TYPES, TEST_EVENT]),
    timestamp: z.string().describe("ISO 8601: when the event happened"),
    data: z.union([editionPublishedData, regionsChangedData, jobEventData, usageThresholdData, z.object({ endpoint_id: z.string(), message: z.string() })]),
  })
  .describe(
    "The body of every delivery (Standard Webhooks): headers webhook-id (the same on every retry: dedupe on it), webhook-timestamp (Unix seconds) and webhook-signature (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`).",
  );
export type WebhookPayload = z.infer<typeof webhookPayload>;
