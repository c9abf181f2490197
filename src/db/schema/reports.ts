/** Reports of wrong facts (src/reports; docs/api.md, "Reporting a wrong fact"). */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A report that a fact of a region is wrong: the field, the value the reporter believes right, the
 * evidence (a URL, a regulation number, free text; at least one), and who filed it. An admin moves
 * it from `open` to `accepted` (with the basis the correction cites), `rejected` or `duplicate`
 * (of another report), with an answer the reporter reads. Accepted reports are pulled into
 * seed/corrections.csv (`npm run corrections:pull`) and applied by the next seed build.
 */
export const reports = sqliteTable(
  "reports",
  {
    id: text("id").primaryKey(), // rpt_...
    userId: text("user_id").notNull(),
    /** The key it was filed with, or `portal` (a portal session). */
    keyId: text("key_id").notNull(),
    regionId: text("region_id").notNull(), // dotted code
    field: text("field", { enum: ["name", "parent", "postal_code", "coordinates", "boundary", "population", "missing_child", "other"] }).notNull(),
    value: text("value").notNull(),
    evidenceUrl: text("evidence_url"),
    evidenceRegulation: text("evidence_regulation"),
    evidenceText: text("evidence_text"),
    /** Where the status changes are told; null: the account's email. */
    notifyEmail: text("notify_email"),
    /** The language the reporter filed in (the portal page's, `id` or `en`): the decision's email is written in it; null: English. */
    lang: text("lang", { enum: ["id", "en"] }),
    status: text("status", { enum: ["open", "accepted", "rejected", "duplicate"] })
      .notNull()
      .default("open"),
    /** The reviewer's answer to the reporter. */
    answer: text("answer"),
    /** accepted: the basis the correction cites (a regulation, a letter, a survey). */
    basis: text("basis"),
    /** accepted: the value the correction applies (the reporter's, or the reviewer's cleaner form of it). */
    acceptedValue: text("accepted_value"),
    /** duplicate: the report it repeats. */
    duplicateOf: text("duplicate_of"),
    createdAt: integer("created_at").notNull(), // ms
    reviewedAt: integer("reviewed_at"), // ms
    reviewedBy: text("reviewed_by"),
  },
  (t) => [
    index("reports_user_idx").on(t.userId, t.createdAt),
    // the open reports per region (the isolate's set of disputed regions reads only open rows), and the queue's filters
    index("reports_status_region_idx").on(t.status, t.regionId),
    index("reports_region_idx").on(t.regionId, t.field),
  ],
);
