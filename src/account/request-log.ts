/**
 * The request log, the isolate's side (the store is the account object's: request-store.ts). A
 * call's line is built when it is answered and kept here, per account; the lines go to the account
 * object in one RPC per account at most every LOG_FLUSH_MS (or LOG_BATCH lines), in the background
 * of the request that started the batch: no call waits for the log, and no D1 write is made for it.
 *
 * Tiles are logged by map view: a key's tiles from one client and page within VIEW_MS of the first
 * are one line (its request id is the first tile's, `count` the tiles); a tile that failed is a line
 * of its own, findable by its request id.
 *
 * What a lost isolate loses: the lines it had not sent (at most LOG_FLUSH_MS of its calls, or a
 * map view's VIEW_MS); docs/api.md says so.
 */
import type { Principal } from "../keys/service";
import { uuidTime } from "../lib/crypto";
import { retried } from "../lib/retry";
import { wakeableDelay } from "../lib/time";
import { accountObject } from "./admission";
import type { LoggedCall, LogQuery, Surface } from "./request-store";

export type { LoggedCall, LogQuery, Surface } from "./request-store";

/** How long a line waits for others of its account before they are sent together. */
const LOG_FLUSH_MS = 1_000;
/** Lines sent at once at most (a busy isolate sends when it has this many). */
const LOG_BATCH = 200;
/** A map view: the tiles of a key, client and page within this long of its first tile. */
export const VIEW_MS = 10_000;
/** Accounts with lines waiting, and map views open, at most (more: the oldest is sent at once). */
const MAX_OPEN = 10_000;

/** A call as its surface knows it when it is answered. */
export type AnsweredCall = {
  principal: Principal;
  requestId: string;
  /** The client's address (cf-connecting-ip): kept for secret keys only. */
  ip?: string;
  surface: Surface;
  method: string;
  route: string;
  status: number;
  code: string | null;
  /** When the request arrived (Date.now() then). */
  startedAt: number;
  version: string | null;
};

type WaitUntil = (p: Promise<unknown>) => void;

/** Lines not yet sent, per account. */
const pending = new Map<string, LoggedCall[]>();
/** Sends in flight, per account, so a read of the log can wait for them. */
const sending = new Map<string, Set<Promise<void>>>();
/** Per account with lines waiting: ends their wait (they are then sent, as at the end of LOG_FLUSH_MS). */
const waits = new Map<string, () => void>();

/**
 * The account's waiting lines are sent now, by their own timer's work, without waiting out
 * LOG_FLUSH_MS. Only from the request that logged the first of them (lib/time.ts wakeableDelay):
 * the fault scenarios' drain.
 */
export function endLogWait(userId: string): void {
  waits.get(userId)?.();
}

function lineOf(c: AnsweredCall, now: number): LoggedCall {
  return {
    // The time in the request id (src/http/request-id.ts), so the id finds its line.
    at: uuidTime(c.requestId) ?? c.startedAt,
    request_id: c.requestId,
    key_id: c.principal.keyId,
    surface: c.surface,
    method: c.method,
    route: c.route,
    status: c.status,
    code: c.code,
    ms: Math.max(0, now - c.startedAt),
    version: c.version,
    ip: c.principal.publishable ? null : (c.ip ?? null),
    count: 1,
  };
}

function keep(env: Env, waitUntil: WaitUntil, userId: string, line: LoggedCall): void {
  let lines = pending.get(userId);
  if (!lines) {
    if (pending.size >= MAX_OPEN) {
      const oldest = pending.keys().next().value as string;
      waitUntil(sendLines(env, oldest));
    }
    lines = [];
    pending.set(userId, lines);
    const delay = wakeableDelay(LOG_FLUSH_MS);
    waits.set(userId, delay.wake);
    waitUntil(delay.done.then(() => sendLines(env, userId)));
  }
  lines.push(line);
  if (lines.length >= LOG_BATCH) waitUntil(sendLines(env, userId));
}

/** Logs an answered call (REST, MCP, a job's creation). Synchronous: the sending is the background's. */
export function logCall(env: Env, waitUntil: WaitUntil, call: AnsweredCall): void {
  keep(env, waitUntil, call.principal.userId, lineOf(call, Date.now()));
}

/** Sends an account's waiting lines to its object, once (a batch sent twice is written once: by time and request id). */
function sendLines(env: Env, userId: string): Promise<void> {
  const lines = pending.get(userId);
  if (!lines?.length) return Promise.resolve();
  pending.delete(userId);
  waits.delete(userId);
  const done = retried(async () => (await accountObject(env, userId)).logRequests({ calls: lines }), {
    attempts: 2,
    backoffMs: 50,
    event: "request_log_send_failed",
    fields: { user_id: userId, lines: lines.length },
  }).then(() => undefined); // lines that never landed are logged by `retried`; the calls themselves were answered
  const set = sending.get(userId) ?? new Set();
  sending.set(userId, set.add(done));
  void done.finally(() => {
    set.delete(done);
    if (set.size === 0 && sending.get(userId) === set) sending.delete(userId);
  });
  return done;
}

// ---------------------------------------------------------------- map views

type View = { userId: string; line: LoggedCall; until: number };
const views = new Map<string, View>();

function closeView(env: Env, id: string, view: View, waitUntil: WaitUntil): void {
  if (views.get(id) === view) views.delete(id);
  keep(env, waitUntil, view.userId, view.line);
}

/**
 * Logs a tile: into its map view (a key's tiles from one client and page within VIEW_MS), or, when
 * it failed, as a line of its own. `page`: where the tiles are shown (the Origin or Referer), if said.
 */
export function logTile(env: Env, waitUntil: WaitUntil, call: AnsweredCall, page: string | undefined): void {
  const now = Date.now();
  const line = lineOf(call, now);
  if (call.status >= 400) {
    keep(env, waitUntil, call.principal.userId, line);
    return;
  }
  const id = [call.principal.userId, call.principal.keyId, call.ip ?? "", page ?? ""].join("\u0000");
  const open = views.get(id);
  if (open && now < open.until) {
    open.line.count++;
    open.line.ms = Math.max(open.line.ms, line.ms);
    return;
  }
  if (open) closeView(env, id, open, waitUntil);
  if (views.size >= MAX_OPEN) {
    const [oldestId, oldest] = views.entries().next().value as [string, View];
    closeView(env, oldestId, oldest, waitUntil);
  }
  const view: View = { userId: call.principal.userId, line, until: now + VIEW_MS };
  views.set(id, view);
  waitUntil(
    new Promise((r) => setTimeout(r, VIEW_MS)).then(() => {
      if (views.get(id) !== view) return;
      closeView(env, id, view, waitUntil);
      return sendLines(env, view.userId);
    }),
  );
}

/** Everything this isolate holds of the account's log is sent (open map views closed), and sends in flight are waited for. */
async function sendAllOf(env: Env, userId: string, waitUntil: WaitUntil): Promise<void> {
  for (const [id, view] of views) if (view.userId === userId) closeView(env, id, view, waitUntil);
  await sendLines(env, userId);
  await Promise.all(sending.get(userId) ?? []);
}

/**
 * A page of the account's log, newest first: what this isolate still holds is sent first (other
 * isolates send theirs within LOG_FLUSH_MS, a map view within VIEW_MS).
 */
export async function readRequestLog(env: Env, userId: string, query: LogQuery, waitUntil: WaitUntil): Promise<{ calls: LoggedCall[]; keptDays: number }> {
  await sendAllOf(env, userId, waitUntil);
  return (await accountObject(env, userId)).requestLog(query);
}
