/**
 * Webhook endpoints of an account (docs/api.md, "Webhooks"): create, list, change, delete, roll the
 * signing secret, the delivery log, redeliver, send a test event, and handing deliveries to the
 * queue. Knows nothing of HTTP: returns the contract's records of endpoints and deliveries, and
 * pages of them, for routes/webhooks.ts and the portal to answer with. The delivery itself is delivery.ts (the queue's consumer), the
 * announcements publisher.ts (the cron).
 */
import { primaryDb } from "../db/client";
import { newId } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { errorText, log } from "../lib/log";
import { type Paging, pageWindow } from "../lib/paging";
import { throttle } from "../lib/throttle";
import { iso, spokenDuration } from "../lib/time";
import {
  type AttemptRow,
  attemptsOf,
  type DeliveryRow,
  deleteEndpoint,
  deliveriesOfEndpoint,
  type EndpointRow,
  findDelivery,
  findEndpointOfUser,
  insertDelivery,
  insertEndpointWithinLimit,
  listEndpointsOfUser,
  markEnqueued,
  markStaleDead,
  reopenDelivery,
  unqueuedDeliveries,
  updateEndpoint,
} from "./queries";
import type { CreateEndpointInput, EventType, UpdateEndpointInput } from "./schemas";
import { TEST_EVENT } from "./schemas";
import { generateSigningSecret, sealSecret } from "./secret";
import { refusedTarget } from "./target";

export const MAX_ENDPOINTS = 10;

/** Creations, secret rolls, test events and redeliveries a user may ask for per minute (WEBHOOK_LIMITER). */
export const WEBHOOK_ACTIONS_PER_MINUTE = 30;

async function throttleActions(env: Env, userId: string): Promise<void> {
  try {
    await throttle(env.WEBHOOK_LIMITER, `webhook:${userId}`, 60);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    throw new ApiError(
      "RATE_LIMITED",
      `At most ${WEBHOOK_ACTIONS_PER_MINUTE} webhook creations, secret rolls, test events and redeliveries per minute. Try again in 60 seconds.`,
      { headers: { "retry-after": "60" } },
    );
  }
}

/** The queue message: which delivery; `manual` (a test event or a redelivery) is sent even to a disabled endpoint. */
export type DeliveryMessage = { delivery: string; manual?: boolean };

export function publicEndpoint(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    events: JSON.parse(e.events) as EventType[],
    regions: JSON.parse(e.regions) as string[],
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    failing_since: iso(e.failingSince),
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
  };
}

function publicDelivery(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: d.id,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: iso(d.createdAt),
    last_attempt_at: iso(d.lastAttemptAt),
    finished_at: iso(d.finishedAt),
    attempt_log: attempts.map((a) => ({
      attempt: a.attempt,
      at: iso(a.startedAt),
      outcome: a.outcome,
      status_code: a.statusCode,
      error: a.error,
      latency_ms: a.latencyMs,
    })),
  };
}

function checkUrl(env: Env, url: string): void {
  const why = refusedTarget(url, env.ENVIRONMENT);
  if (why) throw new ApiError("VALIDATION_ERROR", `Invalid request body: url: ${why}`, { details: [{ path: "url", message: why }] });
}

const notFound = (id: string) => new ApiError("NOT_FOUND", `No webhook endpoint "${id.slice(0, 40)}" in your account.`);

async function ownEndpoint(env: Env, userId: string, id: string): Promise<EndpointRow> {
  const e = await findEndpointOfUser(primaryDb(env), userId, id);
  if (!e) throw notFound(id);
  return e;
}

export async function listEndpoints(env: Env, userId: string) {
  return (await listEndpointsOfUser(primaryDb(env), userId)).map(publicEndpoint);
}

export async function getEndpoint(env: Env, userId: string, id: string) {
  return publicEndpoint(await ownEndpoint(env, userId, id));
}

export async function createEndpoint(env: Env, user: { id: string; emailVerified: boolean }, input: CreateEndpointInput) {
  if (!user.emailVerified)
    throw new ApiError("EMAIL_NOT_VERIFIED", "Verify your email address before adding webhooks (POST /auth/resend-verification sends a new link).");
  checkUrl(env, input.url);
  await throttleActions(env, user.id);
  const id = newId("wh");
  const secret = generateSigningSecret();
  const now = Date.now();
  const row = {
    id,
    userId: user.id,
    url: input.url,
    events: JSON.stringify(input.events),
    regions: JSON.stringify(input.regions),
    enabled: input.enabled,
    secret: await sealSecret(env, secret, id),
    createdAt: now,
    updatedAt: now,
  };
  if (!(await insertEndpointWithinLimit(primaryDb(env), row, MAX_ENDPOINTS)))
    throw new ApiError("WEBHOOK_LIMIT_REACHED", `At most ${MAX_ENDPOINTS} webhook endpoints per account. Delete one first.`);
  // The secret is shown here (and on a roll) and never again.
  return { ...publicEndpoint({ ...row, disabledReason: null, failingSince: null }), secret };
}

export async function changeEndpoint(env: Env, userId: string, id: string, input: UpdateEndpointInput) {
  const e = await ownEndpoint(env, userId, id);
  if (input.url !== undefined) checkUrl(env, input.url);
  const set: Partial<EndpointRow> = { updatedAt: Date.now() };
  if (input.url !== undefined) set.url = input.url;
  if (input.events !== undefined) set.events = JSON.stringify(input.events);
  if (input.regions !== undefined) set.regions = JSON.stringify(input.regions);
  if (input.enabled !== undefined) {
    set.enabled = input.enabled;
    // Enabling again starts afresh: no reason, no run of failures.
    if (input.enabled) Object.assign(set, { disabledReason: null, failingSince: null });
    else set.disabledReason = null;
  }
  await updateEndpoint(primaryDb(env), e.id, set);
  return getEndpoint(env, userId, id);
}

export async function removeEndpoint(env: Env, userId: string, id: string) {
  const e = await ownEndpoint(env, userId, id);
  await deleteEndpoint(primaryDb(env), e.id);
  return publicEndpoint(e);
}

/** A new signing secret, effective for the next attempt; shown once. */
export async function rollSecret(env: Env, userId: string, id: string) {
  const e = await ownEndpoint(env, userId, id);
  await throttleActions(env, userId);
  const secret = generateSigningSecret();
  await updateEndpoint(primaryDb(env), e.id, { secret: await sealSecret(env, secret, e.id), updatedAt: Date.now() });
  return { ...(await getEndpoint(env, userId, id)), secret };
}

// ---------------------------------------------------------------- deliveries

export async function listDeliveries(env: Env, userId: string, id: string, paging: Paging) {
  const e = await ownEndpoint(env, userId, id);
  const w = pageWindow(paging);
  const db = primaryDb(env);
  const { rows, total } = await deliveriesOfEndpoint(db, e.id, w.limit, w.offset);
  const attempts = await attemptsOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) =>
      publicDelivery(
        r,
        attempts.filter((a) => a.deliveryId === r.id),
      ),
    ),
    meta: w.meta(total),
  };
}

async function oneDelivery(env: Env, deliveryId: string) {
  const db = primaryDb(env);
  const d = await findDelivery(db, deliveryId);
  if (!d) throw new ApiError("NOT_FOUND", `No delivery "${deliveryId.slice(0, 40)}".`);
  return publicDelivery(d, await attemptsOf(db, [d.id]));
}

/**
 * Hands deliveries to the queue, then marks them handed over. A failure between the two sends a
 * delivery twice at worst (the consumer skips one already delivered; receivers dedupe on webhook-id);
 * a failure before leaves it unmarked, and the publisher's next run hands it over (`enqueueStranded`).
 */
export async function enqueue(env: Env, ids: string[], manual = false): Promise<void> {
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    await env.WEBHOOK_QUEUE.sendBatch(chunk.map((delivery) => ({ body: { delivery, ...(manual ? { manual } : {}) } satisfies DeliveryMessage })));
    await markEnqueued(primaryDb(env), chunk, Date.now());
  }
}

/** Deliveries recorded but never confirmed as queued (the Worker stopped in between), older than a minute: queued now. */
export async function enqueueStranded(env: Env, now = Date.now()): Promise<number> {
  const rows = await unqueuedDeliveries(primaryDb(env), now - 60_000, 500);
  await enqueue(
    env,
    rows.map((r) => r.id),
  );
  return rows.length;
}

/**
 * A pending delivery with no activity (no attempt, not queued) for 48 hours: its queue message is
 * gone (the queue gave up after consumers that crashed each time), since the schedule never waits
 * more than 12 hours between attempts. It becomes a dead letter, which can be redelivered.
 */
export const STALE_AFTER_MS = 48 * 60 * 60 * 1000;

export async function deadLetterStale(env: Env, now = Date.now()): Promise<number> {
  return markStaleDead(primaryDb(env), now - STALE_AFTER_MS, `no attempt for ${spokenDuration(STALE_AFTER_MS)}: the queue gave up on the message`, now);
}

/**
 * Sends a delivery again (the same message: the same webhook-id), with a fresh retry schedule. Only
 * a delivery that is over (delivered or dead): one still pending has its chain of attempts running,
 * and a second chain beside it would multiply the POSTs to a URL the user chose (409
 * DELIVERY_PENDING). Decided in D1 (the state changes only if it was not pending), so redeliveries
 * sent at once start one chain at most.
 */
export async function redeliver(env: Env, userId: string, id: string, deliveryId: string) {
  const e = await ownEndpoint(env, userId, id);
  await throttleActions(env, userId);
  const db = primaryDb(env);
  const d = await findDelivery(db, deliveryId);
  if (!d || d.endpointId !== e.id) throw new ApiError("NOT_FOUND", `No delivery "${deliveryId.slice(0, 40)}" for this endpoint.`);
  const pending = () =>
    new ApiError("DELIVERY_PENDING", `Delivery ${d.id} is still being attempted (its retries are scheduled); redeliver it once it is delivered or dead.`);
  if (d.status === "pending") throw pending();
  if (!(await reopenDelivery(db, d.id, Date.now()))) throw pending();
  await enqueue(env, [d.id], true);
  return oneDelivery(env, d.id);
}

/** A `webhook.test` event to this endpoint (also when it is disabled), through the queue like any other. */
export async function sendTestEvent(env: Env, userId: string, id: string) {
  const e = await ownEndpoint(env, userId, id);
  await throttleActions(env, userId);
  const now = Date.now();
  const delivery = {
    id: newId("msg"),
    endpointId: e.id,
    eventType: TEST_EVENT,
    eventKey: null,
    payload: JSON.stringify({
      type: TEST_EVENT,
      timestamp: new Date(now).toISOString(),
      data: { endpoint_id: e.id, message: "A test event from Wilayah API. Verify its signature with your endpoint's secret." },
    }),
    status: "pending" as const,
    createdAt: now,
  };
  await insertDelivery(primaryDb(env), delivery);
  try {
    await enqueue(env, [delivery.id], true);
  } catch (err) {
    // Recorded: the publisher's next run queues it.
    log.warn("webhook_enqueue_failed", { delivery: delivery.id, error: errorText(err) });
  }
  return oneDelivery(env, delivery.id);
}
