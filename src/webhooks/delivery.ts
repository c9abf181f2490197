/**
 * The queue's consumer: one POST per message, signed (Standard Webhooks: webhook-id, the delivery's
 * id, the same on every attempt; webhook-timestamp; webhook-signature), 10 s at most. Each attempt
 * is written as `started` before the POST and completed after it, so an attempt the Worker never
 * finished is on record, and a consumer that throws or dies leaves its message to the queue, which
 * sends it again (at-least-once: receivers dedupe on webhook-id). A 2xx answer delivers; anything
 * else (another status, a redirect, a timeout, a network error) is retried on the schedule of
 * schedule.ts, and after the last attempt the delivery is a dead letter. An endpoint failing for 3
 * days without a success is disabled and its owner told by email.
 */
import { Webhook } from "standardwebhooks";
import { mailerFor } from "../auth/mailer";
import { findUserById } from "../auth/queries";
import { primaryDb } from "../db/client";
import { errorText, log } from "../lib/log";
import { disableForFailures, findDelivery, findEndpoint, finishAttempt, markDead, noteFailure, noteSuccess, startAttempt } from "./queries";
import { DISABLE_AFTER_MS, MAX_ATTEMPTS, retryDelaySeconds } from "./schedule";
import { TEST_EVENT } from "./schemas";
import { openSecret } from "./secret";
import type { DeliveryMessage } from "./service";
import { refusedTarget } from "./target";

export const TIMEOUT_MS = 10_000;
const USER_AGENT = "Wilayah-API-Webhooks/1 (+https://github.com/standard-webhooks/standard-webhooks)";

type Outcome = { ok: boolean; statusCode: number | null; error: string | null; latencyMs: number };

async function post(url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
  const started = Date.now();
  try {
    const res = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
    // The answer's body is not read: its status is the whole answer.
    await res.body?.cancel().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { ok, statusCode: res.status, error: ok ? null : `HTTP ${res.status}`, latencyMs: Date.now() - started };
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
    return {
      ok: false,
      statusCode: null,
      error: timedOut ? `no answer within ${TIMEOUT_MS / 1000} s` : connectionError(e),
      latencyMs: Date.now() - started,
    };
  }
}

/**
 * A failed connection in the receiver owner's words: the runtime says "Network connection lost."
 * for a refused connection too (nothing listening there), and a lookup failure names its internals.
 */
function connectionError(e: unknown): string {
  const text = errorText(e);
  if (/Network connection lost|connection refused|ECONNREFUSED|ECONNRESET/i.test(text))
    return "could not connect: the receiver refused or dropped the connection";
  if (/lookup address|Name or service not known|ENOTFOUND|DNS/i.test(text)) return "could not connect: the receiver's host name does not resolve";
  return text.slice(0, 300);
}

async function tellOwner(env: Env, userId: string, url: string, reason: string): Promise<void> {
  const user = await findUserById(primaryDb(env), userId);
  if (!user) return;
  const portal = `${env.DASHBOARD_URL || env.PUBLIC_API_URL || ""}/portal/webhooks`;
  await mailerFor(env).send({
    to: user.email,
    subject: "Wilayah API: a webhook endpoint was disabled",
    text: `Your webhook endpoint ${url} was disabled: ${reason}\n\nFix the receiver, then enable the endpoint again (PATCH /user/webhooks/:id with {"enabled": true}, or ${portal}). Deliveries that failed can be sent again from the delivery log.`,
  });
}

/**
 * One message. Resolves when the message is settled (acked, or retried with its delay); throws
 * when the Worker could not record what happened (D1 down): the caller leaves it to the queue.
 */
export async function deliverMessage(env: Env, message: Message<DeliveryMessage>, now = Date.now()): Promise<void> {
  const db = primaryDb(env);
  const d = await findDelivery(db, message.body.delivery);
  // Unknown (the endpoint was deleted), or settled already (a duplicate message): nothing to send.
  if (d?.status !== "pending") return message.ack();
  const endpoint = await findEndpoint(db, d.endpointId);
  if (!endpoint) {
    await markDead(db, d.id, "the endpoint was deleted", now);
    return message.ack();
  }
  const manual = message.body.manual === true || d.eventType === TEST_EVENT;
  if (!endpoint.enabled && !manual) {
    await markDead(db, d.id, "the endpoint is disabled", now);
    return message.ack();
  }
  const refused = refusedTarget(endpoint.url, env.ENVIRONMENT);
  if (refused) {
    await markDead(db, d.id, `refused: the URL ${refused}`, now);
    return message.ack();
  }

  const attempt = message.attempts;
  const attemptId = await startAttempt(db, d.id, attempt, now);
  const secret = await openSecret(env, endpoint.secret, endpoint.id);
  const signature = new Webhook(secret).sign(d.id, new Date(now), d.payload);
  const outcome = await post(
    endpoint.url,
    {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "webhook-id": d.id,
      "webhook-timestamp": String(Math.floor(now / 1000)),
      "webhook-signature": signature,
    },
    d.payload,
  );
  const finishedAt = Date.now();
  if (outcome.ok) {
    await finishAttempt(db, attemptId, d.id, outcome, "delivered", finishedAt);
    await noteSuccess(db, endpoint.id);
    return message.ack();
  }
  const last = attempt >= MAX_ATTEMPTS;
  await finishAttempt(db, attemptId, d.id, outcome, last ? "dead" : "pending", finishedAt);
  const after = await noteFailure(db, endpoint.id, now);
  if (after?.enabled && after.failingSince !== null && now - after.failingSince >= DISABLE_AFTER_MS) {
    const reason = `every delivery failed for 3 days (since ${new Date(after.failingSince).toISOString()}; last: ${outcome.error})`;
    if (await disableForFailures(db, endpoint.id, reason, finishedAt)) {
      log.warn("webhook_endpoint_disabled", { endpoint: endpoint.id });
      await tellOwner(env, endpoint.userId, endpoint.url, reason);
    }
  }
  if (last) return message.ack();
  message.retry({ delaySeconds: retryDelaySeconds(attempt) });
}

/** The Worker's queue handler: each message on its own; one whose handling failed is retried by the queue. */
export async function consumeDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    try {
      await deliverMessage(env, message);
    } catch (e) {
      log.error("webhook_delivery_failed", { delivery: message.body?.delivery, attempt: message.attempts, error: errorText(e) });
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}
