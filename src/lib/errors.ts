/**
 * The one error type. Every failure the API reports is an ApiError; `onError` in app.ts turns it
 * into the contract's body `{"error": {"code", "message", "request_id", "details"?}}`.
 */
export const ERROR_STATUS = {
  // 400
  INVALID_QUERY: 400,
  INVALID_JSON: 400,
  VALIDATION_ERROR: 400,
  CHALLENGE_REQUIRED: 400,
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
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  CHALLENGE_FAILED: 403,
  ACCOUNT_SUSPENDED: 403,
  // 404, 405, 409, 413, 429
  NOT_FOUND: 404,
  NO_SUBSCRIPTION: 404,
  METHOD_NOT_ALLOWED: 405,
  EMAIL_TAKEN: 409,
  ALREADY_VERIFIED: 409,
  KEY_LIMIT_REACHED: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  // 5xx
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  PAYMENT_NOT_CONFIGURED: 503,
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
