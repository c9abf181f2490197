/**
 * The one logger: one JSON line per event (`level`, `event`, `request_id` when there is one, and
 * the event's own fields), so Workers Logs can filter on any of them. Callers pass no secrets, no
 * passwords, no API keys and no NIK: what is logged is stored.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/**
 * A NIK-like number: 16 or more digits, also written with separators between them (spaces, dots,
 * hyphens, underscores, slashes, plus signs, or their URL escapes), as in a request path
 * `/wilayah/nik/3273-0945-1290-0001`. Masked in every text a log line carries, whatever the caller
 * passed: a NIK must never be stored, and a request path or an error message may hold one.
 */
const NIK_LIKE = /\d(?:(?:[\s._/+-]|%20|%2[bBdDeEfF]|%5[fF])*\d){15,}/g;
const maskNik = (text: string): string => text.replace(NIK_LIKE, "<redacted>");

function write(level: "info" | "notice" | "warn" | "error", event: string, fields: LogFields) {
  const masked: LogFields = {};
  for (const [k, v] of Object.entries(fields)) masked[k] = typeof v === "string" ? maskNik(v) : v;
  const line = JSON.stringify({ level, event, ...masked });
  if (level === "info" || level === "notice") console.log(line);
  else console.error(line);
}

export const log = {
  info: (event: string, fields: LogFields = {}) => write("info", event, fields),
  /**
   * An expected condition, not a fault: a dependency that cannot be reached where that is normal
   * (development offline, a subscriber's receiver that is down), handled by the caller. One plain
   * line on the console's standard output: wrangler frames warnings and errors as coloured blocks,
   * which read as failures of ours. Its `level` ("notice") still filters in Workers Logs.
   */
  notice: (event: string, fields: LogFields = {}) => write("notice", event, fields),
  warn: (event: string, fields: LogFields = {}) => write("warn", event, fields),
  error: (event: string, fields: LogFields = {}) => write("error", event, fields),
};

/**
 * An unknown thrown value as text for a log line. A query builder's error holds the statement's
 * values (drizzle: "Failed query: ...\nparams: ..."), which may be an email or a hash: they are cut.
 */
export const errorText = (e: unknown): string =>
  (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).replace(/\nparams: [\s\S]*$/, "\nparams: (not logged)").slice(0, 2000);
