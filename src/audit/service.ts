/**
 * The security audit trail: events written to D1 with time, actor, subject, client IP and request
 * id. Callers pass ids, amounts and reasons, never a secret, a password or a token.
 */
import type { SQL } from "drizzle-orm";
import { primaryDb } from "../db/client";
import { type PageOf, type Paging, pageWindow } from "../lib/paging";
import { iso } from "../lib/time";
import { type AuditRow, auditPage, insertAuditEvent, insertAuditEventIf } from "./queries";
import type { AuditEventName } from "./schemas";

/** Where a request came from, as the audit trail records it. */
export type RequestMeta = { ip?: string; requestId?: string };

export type AuditEntry = {
  event: AuditEventName;
  actorId?: string | null;
  subjectId?: string | null;
  detail?: Record<string, string | number | boolean | null>;
};

const row = (e: AuditEntry, meta: RequestMeta, at: number) => ({
  at,
  event: e.event,
  actorId: e.actorId ?? null,
  subjectId: e.subjectId ?? null,
  ip: meta.ip ?? null,
  requestId: meta.requestId ?? null,
  detail: e.detail ?? {},
});

/** Records one event. */
export async function audit(env: Env, meta: RequestMeta, entry: AuditEntry): Promise<void> {
  await insertAuditEvent(primaryDb(env), row(entry, meta, Date.now())).run();
}

/** One event as a statement, for the D1 batch of the change it records: both commit or neither. */
export function auditStatement(env: Env, meta: RequestMeta, entry: AuditEntry) {
  return insertAuditEvent(primaryDb(env), row(entry, meta, Date.now()));
}

/**
 * One event as a statement for the D1 batch of the change it records, written only while
 * `condition` (the owner's SQL) holds there: the event and the change commit together or not at all.
 */
export function auditIf(meta: RequestMeta, entry: AuditEntry, condition: SQL): SQL {
  return insertAuditEventIf(row(entry, meta, Date.now()), condition);
}

type AuditEventView = ReturnType<typeof publicAuditEvent>;

export function publicAuditEvent(r: AuditRow) {
  return { id: r.id, at: iso(r.at), event: r.event, actor_id: r.actorId, subject_id: r.subjectId, ip: r.ip, request_id: r.requestId, detail: r.detail };
}

/** Events newest first, paged; filtered by account (subject or actor) and event name. */
export async function listAuditEvents(env: Env, filter: { userId?: string; event?: string }, paging: Paging): Promise<PageOf<AuditEventView>> {
  const w = pageWindow(paging);
  const page = await auditPage(primaryDb(env), filter, w.limit, w.offset);
  return { items: page.rows.map(publicAuditEvent), meta: w.meta(page.total) };
}

/**
 * Events a user did themselves, with their own session or password: only these show the client IP
 * on the user's own security page. Others (an admin's change, a failed login, a reset asked for, a
 * verification link opened) may come from someone else, such as the real owner of an email a
 * squatter registered, whose address is not the account holder's to see.
 */
const DONE_BY_THE_USER = new Set<AuditEventName>([
  "login_succeeded",
  "logout",
  "logout_all",
  "password_changed",
  "key_created",
  "key_revoked",
  "key_rolled",
  "account_replaced",
]);

/** The user's recent events for their own security page: the IP only where the user did it (see DONE_BY_THE_USER). */
export async function ownSecurityEvents(env: Env, userId: string, paging: Paging) {
  const page = await listAuditEvents(env, { userId }, paging);
  return { ...page, items: page.items.map((e) => (e.actor_id === userId && DONE_BY_THE_USER.has(e.event as AuditEventName) ? e : { ...e, ip: null })) };
}
