/**
 * Failures of the platform's services (D1, KV, Durable Objects, the network between them) that go
 * away by themselves: a request that hit one is answered 503 SERVICE_UNAVAILABLE with Retry-After,
 * never a 500, and whatever it was doing is not counted (docs/api.md, "When a dependency fails").
 * Recognised by what Cloudflare's runtime reports: a `retryable` or `overloaded` flag (Durable
 * Objects), or the transient messages of D1 and KV. A failure that is ours (a constraint, a syntax
 * error, a bug) is not one of them and stays a 500 that is logged.
 */
import { ApiError, type ErrorCode } from "./errors";
import { errorText, type LogFields, log } from "./log";

const TRANSIENT =
  /network connection lost|overloaded|caused object to be reset|transient issue|exceeded timeout|reset because its code was updated|exceeded its memory limit|KV (GET|PUT|DELETE|LIST) failed|internal error in D1|service unavailable|connection reset/i;

/** The platform's own error in `e`'s cause chain, when it is a transient one. */
function transientCause(e: unknown): Error | null {
  // Query builders wrap the service's error (drizzle: "Failed query: ...", the original as `cause`).
  for (let err = e, depth = 0; err instanceof Error && depth < 5; err = err.cause, depth++) {
    if (err instanceof ApiError) return null;
    const flags = err as Error & { retryable?: unknown; overloaded?: unknown };
    if (flags.retryable === true || flags.overloaded === true || TRANSIENT.test(err.message)) return err;
  }
  return null;
}

export function isTransientFailure(e: unknown): boolean {
  return transientCause(e) !== null;
}

/**
 * A transient failure for a log line: the platform's message, not the wrapper's (drizzle's holds the
 * whole statement, kilobytes of SQL and the query's values), cut to a line.
 */
export function failureText(e: unknown): string {
  return errorText(transientCause(e) ?? e).slice(0, 300);
}

/** How long a caller should wait before trying again after a dependency failed. */
export const RETRY_AFTER_SECONDS = 2;

export function serviceUnavailable(): ApiError {
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    `A service this request needs did not answer. Nothing was changed or counted; try again in ${RETRY_AFTER_SECONDS} seconds.`,
    {
      headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
    },
  );
}

/**
 * What a caller is told of any failure that reaches a surface (REST's error handler, an MCP tool
 * call), the one place that decides it: an ApiError as itself; a dependency that failed for a
 * moment as 503 SERVICE_UNAVAILABLE (a warning: it goes away by itself); anything else a 500 that
 * names no internals, logged as an error (`event`). `where` says where, in the log line only
 * (request id and path, or tool).
 */
export function failureAnswer(e: unknown, where: LogFields, event = "unhandled_error"): ApiError {
  if (e instanceof ApiError) return e;
  if (isTransientFailure(e)) {
    log.warn("dependency_unavailable", { ...where, error: failureText(e) });
    return serviceUnavailable();
  }
  // A NIK never reaches a log line in whatever form it was written: the logger masks NIK-like digit
  // runs, separators included (lib/log.ts maskNik), in every field (the path of /wilayah/nik/:nik too).
  log.error(event, { ...where, error: errorText(e) });
  return new ApiError("INTERNAL_ERROR", "Something went wrong on our side. Quote the request id when you contact support.");
}

/** The code `failureAnswer` answers `e` with, without logging it again (the request log's line of a failed call). */
export function failureCode(e: unknown): ErrorCode {
  if (e instanceof ApiError) return e.code;
  return isTransientFailure(e) ? "SERVICE_UNAVAILABLE" : "INTERNAL_ERROR";
}
