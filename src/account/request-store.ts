/**
 * The account's request log in the account object's own SQLite (not D1): one table per UTC day,
 * `request_log_YYYYMMDD`, each keyed by (time, request id) and nothing else (WITHOUT ROWID, no
 * second index), so a logged call is one row written: the figure docs/api.md prices. A request id
 * is a UUID version 7 (src/http/request-id.ts): its time finds its day and its row, so no index of
 * ids is kept. A day past the plan's keeping is dropped whole (a table dropped, not rows deleted one
 * by one, which would be billed as a write each). Only the object uses it (object-log.ts; .dependency-cruiser.cjs).
 */
import { utcDay } from "../lib/time";

type Value = string | number | null;
/** The object's `ctx.storage.sql.exec`, as rows and the rows it wrote (what the platform bills). */
export type Exec = (query: string, ...bindings: Value[]) => { rows: Record<string, Value>[]; rowsWritten: number };

const SURFACES = ["rest", "mcp", "tiles", "jobs"] as const;
export type Surface = (typeof SURFACES)[number];

/** One line of the log: a call (or a map view's tiles, `count` of them), as it was answered. */
export type LoggedCall = {
  /** When the request arrived (epoch ms): the time in its request id. */
  at: number;
  request_id: string;
  key_id: string;
  surface: Surface;
  /** GET or POST; `tools/call` for MCP. */
  method: string;
  /** The endpoint's path template (`/wilayah/search`), the MCP tool's name, `/tiles/{z}/{x}/{y}.mvt`, `/jobs`. */
  route: string;
  status: number;
  code: string | null;
  /** Milliseconds from arrival to the answer (the slowest tile of a view). */
  ms: number;
  version: string | null;
  /** The caller's address, for secret keys only (a publishable key's callers are the public). */
  ip: string | null;
  /** Requests this line stands for: 1, or the tiles of a map view. */
  count: number;
};

export type LogQuery = {
  /** Only calls at or after (epoch ms), and before `to`. */
  from: number;
  to: number;
  keyId?: string;
  /** Status from `statusMin` (inclusive) to `statusMax` (exclusive). */
  statusMin?: number;
  statusMax?: number;
  route?: string;
  surface?: Surface;
  code?: string;
  requestId?: string;
  /** Where the previous page ended: calls older than this one. */
  before?: { at: number; requestId: string };
  limit: number;
};

const COLUMNS = "at, request_id, key_id, surface, method, route, status, code, ms, version, ip, count";
const PREFIX = "request_log_";
const dayOf = (ms: number) => utcDay(ms).replaceAll("-", "");
const DAY_TABLE = /^request_log_(\d{8})$/;
/** The last millisecond of the year 9999: a range open to the future ends here (days are 8 digits). */
const LAST_DAY = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export class RequestLogStore {
  /** The day tables there are (YYYYMMDD), newest first; read from the schema once per object. */
  #days: string[] | undefined;

  constructor(private readonly exec: Exec) {}

  #dayList(): string[] {
    this.#days ??= this.exec(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '${PREFIX}%'`)
      .rows.map((r) => DAY_TABLE.exec(String(r.name))?.[1])
      .filter((d): d is string => d !== undefined)
      .sort()
      .reverse();
    return this.#days;
  }

  #ensureDay(day: string): void {
    const days = this.#dayList();
    if (days.includes(day)) return;
    this.exec(
      `CREATE TABLE IF NOT EXISTS ${PREFIX}${day} (at INTEGER NOT NULL, request_id TEXT NOT NULL, key_id TEXT NOT NULL, surface TEXT NOT NULL, method TEXT NOT NULL, route TEXT NOT NULL, status INTEGER NOT NULL, code TEXT, ms INTEGER NOT NULL, version TEXT, ip TEXT, count INTEGER NOT NULL, PRIMARY KEY (at, request_id)) WITHOUT ROWID`,
    );
    days.push(day);
    days.sort().reverse();
  }

  /**
   * Writes calls, each once: a batch sent again (a retried RPC whose answer was lost) writes nothing
   * more. One statement per day (the rows as one JSON parameter). Returns the rows written.
   */
  add(calls: readonly LoggedCall[]): number {
    const byDay = new Map<string, LoggedCall[]>();
    for (const c of calls) {
      const day = dayOf(c.at);
      byDay.set(day, [...(byDay.get(day) ?? []), c]);
    }
    let written = 0;
    for (const [day, rows] of byDay) {
      this.#ensureDay(day);
      written += this.exec(
        `INSERT OR IGNORE INTO ${PREFIX}${day} (${COLUMNS})
         SELECT ${COLUMNS.split(", ")
           .map((c) => `value ->> '$.${c}'`)
           .join(", ")} FROM json_each(?)`,
        JSON.stringify(rows),
      ).rowsWritten;
    }
    return written;
  }

  /**
   * Calls matching `q`, newest first, at most `q.limit`: read a day at a time from the newest day
   * of the range, stopping as soon as the page is full.
   */
  find(q: LogQuery): LoggedCall[] {
    const newest = dayOf(Math.min(q.to - 1, q.before?.at ?? Number.POSITIVE_INFINITY, LAST_DAY));
    const oldest = dayOf(q.from);
    const out: LoggedCall[] = [];
    for (const day of this.#dayList()) {
      if (day > newest) continue;
      if (day < oldest || out.length >= q.limit) break;
      const where = ["at >= ?", "at < ?"];
      const args: Value[] = [q.from, q.to];
      const add = (clause: string, ...values: Value[]) => {
        where.push(clause);
        args.push(...values);
      };
      if (q.keyId !== undefined) add("key_id = ?", q.keyId);
      if (q.statusMin !== undefined) add("status >= ?", q.statusMin);
      if (q.statusMax !== undefined) add("status < ?", q.statusMax);
      if (q.route !== undefined) add("route = ?", q.route);
      if (q.surface !== undefined) add("surface = ?", q.surface);
      if (q.code !== undefined) add("code = ?", q.code);
      if (q.requestId !== undefined) add("request_id = ?", q.requestId);
      if (q.before) add("(at < ? OR (at = ? AND request_id < ?))", q.before.at, q.before.at, q.before.requestId);
      const rows = this.exec(
        `SELECT ${COLUMNS} FROM ${PREFIX}${day} WHERE ${where.join(" AND ")} ORDER BY at DESC, request_id DESC LIMIT ?`,
        ...args,
        q.limit - out.length,
      ).rows;
      out.push(...(rows as unknown as LoggedCall[]));
    }
    return out;
  }

  /** Drops the days wholly before `ms` (kept no longer); returns how many. */
  dropBefore(ms: number): number {
    const first = dayOf(ms);
    const gone = this.#dayList().filter((d) => d < first);
    for (const day of gone) this.exec(`DROP TABLE IF EXISTS ${PREFIX}${day}`);
    this.#days = this.#dayList().filter((d) => d >= first);
    return gone.length;
  }

  /** The oldest day kept but for the newest (a log grown past its size drops those first), if there are two or more. */
  oldestDay(): string | undefined {
    const days = this.#dayList();
    return days.length > 1 ? days[days.length - 1] : undefined;
  }

  /** Drops one day's table. */
  dropDay(day: string): void {
    this.exec(`DROP TABLE IF EXISTS ${PREFIX}${day}`);
    this.#days = this.#dayList().filter((d) => d !== day);
  }
}
