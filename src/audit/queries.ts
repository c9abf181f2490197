/** The audit table's statements (src/audit owns `audit_events`). */
import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { auditEvents } from "../db/schema";

export type AuditRow = typeof auditEvents.$inferSelect;
export type NewAuditRow = typeof auditEvents.$inferInsert;

/** One event, as a statement (for a batch with the change it records). */
export function insertAuditEvent(db: Db, row: NewAuditRow) {
  return db.insert(auditEvents).values(row);
}

/**
 * One event, as a statement written only while `condition` holds when it runs: placed in the batch
 * of the change it records, it is written with that change or not at all (also when the batch is
 * sent again).
 */
export function insertAuditEventIf(row: NewAuditRow, condition: SQL): SQL {
  return sql`INSERT INTO audit_events (at, event, actor_id, subject_id, ip, request_id, detail)
    SELECT ${row.at}, ${row.event}, ${row.actorId ?? null}, ${row.subjectId ?? null}, ${row.ip ?? null}, ${row.requestId ?? null}, ${JSON.stringify(row.detail)}
    WHERE ${condition}`;
}

/** Events newest first, filtered by the account they concern (as subject or actor) and the event name. */
export async function auditPage(db: Db, filter: { userId?: string; event?: string }, limit: number, offset: number) {
  const conditions: SQL[] = [];
  if (filter.userId) conditions.push(or(eq(auditEvents.subjectId, filter.userId), eq(auditEvents.actorId, filter.userId)) as SQL);
  if (filter.event) conditions.push(eq(auditEvents.event, filter.event));
  const where = conditions.length ? and(...conditions) : undefined;
  const [totals, rows] = await db.batch([
    db.select({ n: sql<number>`count(*)` }).from(auditEvents).where(where),
    db.select().from(auditEvents).where(where).orderBy(desc(auditEvents.id)).limit(limit).offset(offset),
  ]);
  return { total: Number(totals[0]?.n ?? 0), rows };
}
