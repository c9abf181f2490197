/** The audit log (src/audit). */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Security events (src/audit): who did what to whom, from where, in which request. Never a secret,
 * a password or a token: `detail` holds ids, amounts, reasons and the like.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(), // ms
    event: text("event").notNull(),
    actorId: text("actor_id"), // who acted (the user, an admin), null for the provider or an unknown caller
    subjectId: text("subject_id"), // whose account it concerns, null when no account matched
    ip: text("ip"),
    requestId: text("request_id"),
    detail: text("detail", { mode: "json" }).$type<Record<string, string | number | boolean | null>>().notNull(),
  },
  (t) => [index("audit_subject_idx").on(t.subjectId, t.id), index("audit_event_idx").on(t.event, t.id), index("audit_actor_idx").on(t.actorId, t.id)],
);
