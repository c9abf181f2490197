/** Webhooks (src/webhooks; docs/api.md, "Webhooks"). */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./auth";

/**
 * A developer's webhook endpoints. The signing secret is one we sign with, so it is stored encrypted
 * (AES-GCM under a key derived from WEBHOOK_SECRET_KEY, or JWT_SECRET: src/webhooks/secret.ts), not
 * hashed. `events` and `regions` are JSON arrays. `failing_since`: the first failed attempt of the
 * current run of failures (null after a success); three days of it disable the endpoint.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(), // wh_...
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    url: text("url").notNull(),
    events: text("events").notNull(),
    regions: text("regions").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason"),
    secret: text("secret").notNull(), // encrypted: v1.<key>.<iv>.<ciphertext>
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    failingSince: integer("failing_since"),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Events announced (the publisher's memory): one row per key (`edition.published:2025`), written
 * once. The first run ever writes the current edition with `baseline` 1 and delivers nothing.
 */
export const webhookEvents = sqliteTable("webhook_events", {
  key: text("key").primaryKey(),
  type: text("type").notNull(),
  edition: text("edition"),
  baseline: integer("baseline", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
});

/**
 * One message to one endpoint: `id` is its `webhook-id`, the same on every attempt. `payload` is the
 * body exactly as sent. Status: pending (queued or retrying), delivered, dead (the retries are spent,
 * or the endpoint refused it for good). `event_key` makes the publisher's inserts idempotent.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(), // msg_...
    endpointId: text("endpoint_id").notNull(),
    eventType: text("event_type").notNull(),
    eventKey: text("event_key"),
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "delivered", "dead"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    enqueuedAt: integer("enqueued_at"),
    lastAttemptAt: integer("last_attempt_at"),
    finishedAt: integer("finished_at"),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    uniqueIndex("webhook_deliveries_event_uq").on(t.endpointId, t.eventKey, t.eventType),
    index("webhook_deliveries_unqueued_idx").on(t.status, t.enqueuedAt),
  ],
);

/**
 * Each attempt, written as `started` before the POST and completed after it: a row left `started`
 * is an attempt the Worker did not finish (it crashed or was evicted); the queue tries again.
 */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: text("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: integer("started_at").notNull(),
    outcome: text("outcome", { enum: ["started", "ok", "failed"] }).notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    latencyMs: integer("latency_ms"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.id)],
);
