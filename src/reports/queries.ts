/** The reports table's statements (src/reports owns `reports`). */
import { and, asc, count, desc, eq, gte, inArray, not, type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { reports } from "../db/schema";

export type ReportRow = typeof reports.$inferSelect;
export type NewReportRow = typeof reports.$inferInsert;

export function insertReport(db: Db, row: NewReportRow) {
  return db.insert(reports).values(row);
}

export async function findReport(db: Db, id: string): Promise<ReportRow | undefined> {
  return (await db.select().from(reports).where(eq(reports.id, id)).limit(1))[0];
}

/**
 * "The account has filed at most `cap` reports since `since`" (a report just inserted counted), for
 * the statements of the batch that files one: the cap holds for reports filed at the same moment too,
 * since D1 runs a batch as one transaction, one at a time.
 */
export function withinCap(userId: string, since: number, cap: number): SQL {
  return sql`(SELECT count(*) FROM reports WHERE user_id = ${userId} AND created_at >= ${since}) <= ${cap}`;
}

/** Takes back a report just inserted when it went over the cap (`withinCap`), in the same batch. */
export function dropOverCap(db: Db, id: string, userId: string, since: number, cap: number) {
  return db.delete(reports).where(and(eq(reports.id, id), not(withinCap(userId, since, cap))));
}

/** Reports an account filed since `since` (ms): the daily cap. */
export async function countFiledSince(db: Db, userId: string, since: number): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(reports)
    .where(and(eq(reports.userId, userId), gte(reports.createdAt, since)));
  return r?.n ?? 0;
}

/** One account's reports, newest first. */
export async function reportsOfUser(db: Db, userId: string, status: string | undefined, limit: number, offset: number) {
  const where = and(eq(reports.userId, userId), status ? eq(reports.status, status as ReportRow["status"]) : undefined);
  const [totals, rows] = await db.batch([
    db.select({ n: count() }).from(reports).where(where),
    db.select().from(reports).where(where).orderBy(desc(reports.createdAt), desc(reports.id)).limit(limit).offset(offset),
  ]);
  return { total: totals[0]?.n ?? 0, rows };
}

/** The admin queue: oldest first (the longest waiting on top), filtered. */
export async function reportQueue(db: Db, filter: { status?: string; field?: string; regionId?: string }, limit: number, offset: number) {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(reports.status, filter.status as ReportRow["status"]));
  if (filter.field) conditions.push(eq(reports.field, filter.field as ReportRow["field"]));
  if (filter.regionId) conditions.push(eq(reports.regionId, filter.regionId));
  const where = conditions.length ? and(...conditions) : undefined;
  const [totals, rows] = await db.batch([
    db.select({ n: count() }).from(reports).where(where),
    db.select().from(reports).where(where).orderBy(asc(reports.createdAt), asc(reports.id)).limit(limit).offset(offset),
  ]);
  return { total: totals[0]?.n ?? 0, rows };
}

/** Every report of these regions (for grouping duplicates on a page of the queue): a few per region. */
export async function reportsOfRegions(db: Db, regionIds: string[]): Promise<Pick<ReportRow, "id" | "regionId" | "field" | "value" | "createdAt">[]> {
  if (regionIds.length === 0) return [];
  return db
    .select({ id: reports.id, regionId: reports.regionId, field: reports.field, value: reports.value, createdAt: reports.createdAt })
    .from(reports)
    .where(inArray(reports.regionId, regionIds))
    .orderBy(asc(reports.createdAt), asc(reports.id));
}

/**
 * A decision, written only while the report is still open (two admins at once: one wins, the
 * other is told). Returns the row after it, or undefined when it was not open.
 */
export async function decide(
  db: Db,
  id: string,
  change: Pick<ReportRow, "status" | "answer" | "basis" | "acceptedValue" | "duplicateOf" | "reviewedAt" | "reviewedBy">,
): Promise<ReportRow | undefined> {
  return (
    await db
      .update(reports)
      .set(change)
      .where(and(eq(reports.id, id), eq(reports.status, "open")))
      .returning()
  )[0];
}

/** Open reports per region: reads the open rows only (reports_status_region_idx). */
export async function openCounts(db: Db): Promise<{ regionId: string; n: number }[]> {
  return db.select({ regionId: reports.regionId, n: count() }).from(reports).where(eq(reports.status, "open")).groupBy(reports.regionId);
}
