/**
 * The one logger: one JSON line per event (`level`, `event`, `request_id` when there is one, and
 * the event's own fields), so Workers Logs can filter on any of them. Callers pass no secrets, no
 * passwords, no API keys and no NIK: what is logged is stored.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

function write(level: "info" | "warn" | "error", event: string, fields: LogFields) {
  const line = JSON.stringify({ level, event, ...fields });
  if (level === "info") console.log(line);
  else console.error(line);
}

export const log = {
  info: (event: string, fields: LogFields = {}) => write("info", event, fields),
  warn: (event: string, fields: LogFields = {}) => write("warn", event, fields),
  error: (event: string, fields: LogFields = {}) => write("error", event, fields),
};

/** An unknown thrown value as text for a log line. */
export const errorText = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));
