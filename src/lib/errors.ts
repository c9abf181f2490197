/**
 * The one error type and the one table of codes. Every failure the API reports is an ApiError;
 * the handler in src/http/errors.ts turns it into the contract's body
 * `{"error": {"code", "message", "request_id", "details"?}}`. Services throw it and know nothing of HTTP.
 */
import { z } from "zod";

export const ERROR_STATUS = {
  // 400
  INVALID_QUERY: 400,
  INVALID_JSON: 400,
  VALIDATION_ERROR: 400,
  CHALLENGE_REQUIRED: 400,
  INVALID_RESET_TOKEN: 400,
  // 401
  MISSING_TOKEN: 401,
  UNAUTHORIZED: 401,
  INVALID_TOKEN: 401,
  INVALID_CREDENTIALS: 401,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  INVALID_SIGNATURE: 401,
  // 402, 403
  QUOTA_EXCEEDED: 402,
  /** The account's own monthly cap on credits spent beyond the quota is reached (credits may be left). */
  SPEND_LIMIT_REACHED: 402,
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  CHALLENGE_FAILED: 403,
  ACCOUNT_SUSPENDED: 403,
  PLAN_REQUIRED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  SECRET_KEY_REQUIRED: 403,
  // 404, 405, 409, 413, 415, 416, 429
  NOT_FOUND: 404,
  NO_SUBSCRIPTION: 404,
  METHOD_NOT_ALLOWED: 405,
  EMAIL_TAKEN: 409,
  ALREADY_VERIFIED: 409,
  KEY_LIMIT_REACHED: 409,
  KEY_REVOKED: 409,
  KEY_CHANGED: 409,
  WEBHOOK_LIMIT_REACHED: 409,
  LAST_ADMIN: 409,
  TOO_MANY_OPEN_INVOICES: 409,
  PAYMENT_AMOUNT_MISMATCH: 409,
  JOB_FINISHED: 409,
  JOB_NOT_FINISHED: 409,
  REPORT_CLOSED: 409,
  DELIVERY_PENDING: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  // 5xx
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  PAYMENT_NOT_CONFIGURED: 503,
  SERVICE_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

export type ErrorDetail = { path: string; message: string };

export class ApiError extends Error {
  readonly status: ErrorStatus;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

/** The error body, as a schema (the API document and its contract tests use it). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).describe("Stable, machine-readable: branch on this"),
    message: z.string().describe("For people: what happened and what to do"),
    request_id: z.string().describe("Also in the x-request-id header; quote it to support"),
    details: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe("Validation failures: which field, and why"),
  }),
});

export function errorBody(code: ErrorCode, message: string, requestId: string | undefined, details?: ErrorDetail[]) {
  return { error: { code, message, request_id: requestId, ...(details ? { details } : {}) } };
}

/** A validation failure as an ApiError: a one-line message naming each field, and the same as `details`. */
export function validationError(code: ErrorCode, what: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): ApiError {
  const details = issuesToDetails(issues);
  return new ApiError(code, `Invalid ${what}: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, { details });
}

/** zod issues as `details`: a path a developer can find in their request, and the reason. */
export function issuesToDetails(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ErrorDetail[] {
  return issues.map((i) => ({ path: i.path.map(String).join(".") || "(root)", message: i.message }));
}
