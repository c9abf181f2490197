/**
 * The account's request log as GET /user/requests and the portal show it: filters checked and
 * turned into the store's query, pages by cursor (where the last page ended: a time and a request
 * id), each call with its key's label. The log itself: request-log.ts (isolate) and request-store.ts.
 */
import { primaryDb } from "../db/client";
import { keyLabels } from "../keys/queries";
import { base64url, fromBase64, uuidTime } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { iso } from "../lib/time";
import { type LogQuery, readRequestLog } from "./request-log";
import type { RequestLogQuery } from "./schemas";

const dec = new TextDecoder();
const enc = new TextEncoder();

const cursorOf = (at: number, requestId: string) => base64url(enc.encode(`${at}.${requestId}`));

function readCursor(cursor: string): { at: number; requestId: string } {
  const refuse = () =>
    new ApiError("INVALID_QUERY", "cursor is not one this API gave (use meta.next_cursor as it is).", {
      details: [{ path: "cursor", message: "unknown cursor" }],
    });
  let text: string;
  try {
    text = dec.decode(fromBase64(cursor.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    throw refuse();
  }
  const m = /^(\d{1,15})\.([\w-]{1,64})$/.exec(text);
  if (!m) throw refuse();
  return { at: Number(m[1]), requestId: m[2] };
}

/** `2xx` -> 200..300, `402` -> 402..403. */
function statusRange(status: string | undefined): { statusMin?: number; statusMax?: number } {
  if (!status) return {};
  const min = status.endsWith("xx") ? Number(status[0]) * 100 : Number(status);
  return { statusMin: min, statusMax: status.endsWith("xx") ? min + 100 : min + 1 };
}

/** A page of the account's calls, newest first, and the cursor of the next (older) page. */
export async function listRequests(env: Env, userId: string, q: RequestLogQuery, waitUntil: (p: Promise<unknown>) => void) {
  let from = q.from ? Date.parse(q.from) : 0;
  let to = q.to ? Date.parse(q.to) : Number.MAX_SAFE_INTEGER;
  // A request id names its own time (a UUID version 7): its line is looked for at that millisecond only.
  const idTime = q.request_id ? uuidTime(q.request_id) : undefined;
  if (idTime !== undefined) {
    from = Math.max(from, idTime);
    to = Math.min(to, idTime + 1);
  }
  const query: LogQuery = {
    from,
    to,
    ...statusRange(q.status),
    ...(q.key ? { keyId: q.key } : {}),
    ...(q.route ? { route: q.route } : {}),
    ...(q.surface ? { surface: q.surface } : {}),
    ...(q.code ? { code: q.code } : {}),
    ...(q.request_id ? { requestId: q.request_id } : {}),
    ...(q.cursor ? { before: readCursor(q.cursor) } : {}),
    limit: q.limit + 1,
  };
  const { calls, keptDays } = from < to ? await readRequestLog(env, userId, query, waitUntil) : { calls: [], keptDays: 0 };
  const page = calls.slice(0, q.limit);
  const labels = new Map((await keyLabels(primaryDb(env), [...new Set(page.map((c) => c.key_id))])).map((k) => [k.id, k]));
  const last = page.at(-1);
  return {
    items: page.map((c) => ({
      request_id: c.request_id,
      at: iso(c.at),
      key: { id: c.key_id, name: labels.get(c.key_id)?.name ?? null, prefix: labels.get(c.key_id)?.prefix ?? null },
      surface: c.surface,
      method: c.method,
      route: c.route,
      status: c.status,
      error_code: c.code,
      latency_ms: c.ms,
      data_version: c.version,
      ip: c.ip,
      count: c.count,
    })),
    next_cursor: calls.length > q.limit && last ? cursorOf(last.at, last.request_id) : null,
    kept_days: keptDays,
  };
}
