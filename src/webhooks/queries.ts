/** Reads and writes of the webhook tables (src/db/schema.ts, "webhooks"); only this room touches them. */
import { and, asc, count, desc, eq, isNull, lt, lte, ne, sql } from "drizzle-orm";
import { batch, type Db } from "../db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export async function listEndpointsOfUser(db: Db, userId: string): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
}

export async function findEndpointOfUser(db: Db, userId: string, id: string): Promise<EndpointRow | undefined> {
  return (
    await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
      .limit(1)
  )[0];
}

export async function findEndpoint(db: Db, id: string): Promise<EndpointRow | undefined> {
  return (await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).limit(1))[0];
}

/** Inserts the endpoint only while the user has fewer than `max` (one statement: concurrent creates cannot overshoot). True when inserted. */
export async function insertEndpointWithinLimit(db: Db, e: typeof webhookEndpoints.$inferInsert & { createdAt: number }, max: number): Promise<boolean> {
  const res = await db.run(sql`INSERT INTO webhook_endpoints (id, user_id, url, events, regions, enabled, secret, created_at, updated_at)
    SELECT ${e.id}, ${e.userId}, ${e.url}, ${e.events}, ${e.regions}, ${e.enabled ? 1 : 0}, ${e.secret}, ${e.createdAt}, ${e.createdAt}
    WHERE (SELECT count(*) FROM webhook_endpoints WHERE user_id = ${e.userId}) < ${max}`);
  return res.meta.changes === 1;
}

export async function updateEndpoint(db: Db, id: string, set: Partial<typeof webhookEndpoints.$inferInsert>): Promise<void> {
  await db.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id));
}

/** Deletes an endpoint with its deliveries and their attempts. */
export async function deleteEndpoint(db: Db, id: string): Promise<void> {
  await batch(db, [
    sql`DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ${id})`,
    db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)),
    db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)),
  ]);
}

/** Enabled endpoints created at or before `at` that subscribe to `type` (of `userId` only, for an account's own events). */
export async function subscribers(db: Db, type: string, at: number, userId?: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        lte(webhookEndpoints.createdAt, at),
        sql`EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.events}) WHERE value = ${type})`,
        userId === undefined ? undefined : eq(webhookEndpoints.userId, userId),
      ),
    );
}

// ---------------------------------------------------------------- events (the publisher's memory)

/** Whether any edition was announced or taken as the baseline (an account's own events, such as its jobs', do not count). */
export async function anyEventRecorded(db: Db): Promise<boolean> {
  return (await db.select({ n: count() }).from(webhookEvents).where(eq(webhookEvents.type, "edition.published")))[0].n > 0;
}

export async function findEvent(db: Db, key: string) {
  return (await db.select().from(webhookEvents).where(eq(webhookEvents.key, key)).limit(1))[0];
}

/**
 * Records an event and its deliveries in one batch: both or neither. The event row is written only
 * if absent (so a second run records nothing new) and the deliveries are ignored when already there.
 */
export async function recordEvent(db: Db, event: typeof webhookEvents.$inferInsert, deliveries: (typeof webhookDeliveries.$inferInsert)[]): Promise<void> {
  await batch(db, [
    db.insert(webhookEvents).values(event).onConflictDoNothing(),
    ...deliveries.map((d) => db.insert(webhookDeliveries).values(d).onConflictDoNothing()),
  ]);
}

// ---------------------------------------------------------------- deliveries

export async function insertDelivery(db: Db, d: typeof webhookDeliveries.$inferInsert): Promise<void> {
  await db.insert(webhookDeliveries).values(d);
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryRow | undefined> {
  return (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1))[0];
}

/** Pending deliveries never handed to the queue (or whose handing-over was not confirmed) created before `before`. */
export async function unqueuedDeliveries(db: Db, before: number, limit: number): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), isNull(webhookDeliveries.enqueuedAt), lt(webhookDeliveries.createdAt, before)))
    .orderBy(asc(webhookDeliveries.createdAt))
    .limit(limit);
}

export async function markEnqueued(db: Db, ids: string[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookDeliveries)
    .set({ enqueuedAt: at })
    .where(sql`${webhookDeliveries.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
}

/** Pending deliveries whose last activity (attempt, queuing, creation) is before `before`: dead, with the reason. How many. */
export async function markStaleDead(db: Db, before: number, reason: string, at: number): Promise<number> {
  const res = await db
    .update(webhookDeliveries)
    .set({ status: "dead", lastError: reason, finishedAt: at })
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        sql`max(coalesce(${webhookDeliveries.lastAttemptAt}, 0), coalesce(${webhookDeliveries.enqueuedAt}, 0), ${webhookDeliveries.createdAt}) < ${before}`,
      ),
    );
  return res.meta.changes;
}

/**
 * Back to pending for a redelivery (its attempts kept), only from a final state: false when it is
 * pending already (its chain of attempts is still running, and a second chain must never start).
 */
export async function reopenDelivery(db: Db, id: string, at: number): Promise<boolean> {
  const res = await db
    .update(webhookDeliveries)
    .set({ status: "pending", finishedAt: null, enqueuedAt: at })
    .where(and(eq(webhookDeliveries.id, id), ne(webhookDeliveries.status, "pending")));
  return res.meta.changes === 1;
}

/** An endpoint's deliveries, newest first, a page of them, and their number. */
export async function deliveriesOfEndpoint(db: Db, endpointId: string, limit: number, offset: number): Promise<{ rows: DeliveryRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)),
  ]);
  return { rows, total: total[0].n };
}

/** The attempts of these deliveries, oldest first (ids as one JSON parameter). */
export async function attemptsOf(db: Db, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookAttempts)
    .where(sql`${webhookAttempts.deliveryId} IN (SELECT value FROM json_each(${JSON.stringify(deliveryIds)}))`)
    .orderBy(asc(webhookAttempts.id));
}

/**
 * Before the POST: the attempt as `started` and the delivery's count raised, in one batch, so an
 * attempt the Worker never finished is still on record. The attempt row's id.
 */
export async function startAttempt(db: Db, deliveryId: string, attempt: number, at: number): Promise<number> {
  const [inserted] = await batch(db, [
    db.insert(webhookAttempts).values({ deliveryId, attempt, startedAt: at, outcome: "started" }).returning({ id: webhookAttempts.id }),
    db
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: at })
      .where(eq(webhookDeliveries.id, deliveryId)),
  ]);
  return (inserted.results[0] as { id: number }).id;
}

/** After the POST: the attempt's outcome, and the delivery's state (`status` given when it is final). */
export async function finishAttempt(
  db: Db,
  attemptId: number,
  deliveryId: string,
  outcome: { ok: boolean; statusCode: number | null; error: string | null; latencyMs: number },
  status: "pending" | "delivered" | "dead",
  at: number,
): Promise<void> {
  await batch(db, [
    db
      .update(webhookAttempts)
      .set({ outcome: outcome.ok ? "ok" : "failed", statusCode: outcome.statusCode, error: outcome.error, latencyMs: outcome.latencyMs })
      .where(eq(webhookAttempts.id, attemptId)),
    db
      .update(webhookDeliveries)
      .set({ status, lastStatusCode: outcome.statusCode, lastError: outcome.error, finishedAt: status === "pending" ? null : at })
      .where(eq(webhookDeliveries.id, deliveryId)),
  ]);
}

/** A delivery ended without an attempt (its endpoint gone or refused): dead, with the reason. */
export async function markDead(db: Db, deliveryId: string, reason: string, at: number): Promise<void> {
  await db.update(webhookDeliveries).set({ status: "dead", lastError: reason, finishedAt: at }).where(eq(webhookDeliveries.id, deliveryId));
}

/** After a failed attempt: the run of failures starts now unless it started already. The endpoint as it is then. */
export async function noteFailure(db: Db, endpointId: string, at: number): Promise<EndpointRow | undefined> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at})` })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning();
  return rows[0];
}

export async function noteSuccess(db: Db, endpointId: string): Promise<void> {
  await db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpointId));
}

/** Disables an enabled endpoint with a reason; true when this call did (so only one email is sent). */
export async function disableForFailures(db: Db, endpointId: string, reason: string, at: number): Promise<boolean> {
  const res = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: at })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true)));
  return res.meta.changes === 1;
}
