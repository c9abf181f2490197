/**
 * The one error type. Every failure the API reports is an ApiError; `onError` below turns it into
 * the contract's body `{"error": {"code", "message", "request_id", "details"?}}`.
 */
import type { Context, ErrorHandler, Hono, MiddlewareHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { TrieRouter } from "hono/router/trie-router";
import { findTargetHandler, isMiddleware } from "hono/utils/handler";
import { z } from "zod";

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
  UNSUPPORTED_MEDIA_TYPE: 415,
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

/** The error body, as a schema (the API document and its contract tests use it). */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).describe("Stable, machine-readable: branch on this"),
      message: z.string().describe("For people: what happened and what to do"),
      request_id: z.string().describe("Also in the x-request-id header; quote it to support"),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional().describe("Validation failures: which field, and why"),
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

// ---------------------------------------------------------------- the handler that writes every error

/** The contract's error response; an ApiError's headers (e.g. Retry-After) go with it. */
function errorResponse(c: Context, code: ErrorCode, message: string, extra: ApiError["extra"] = {}) {
  for (const [k, v] of Object.entries(extra.headers ?? {})) c.header(k, v);
  return c.json(errorBody(code, message, c.get("requestId") as string | undefined, extra.details), ERROR_STATUS[code]);
}

/** `app.onError`: ApiErrors as themselves, Hono's body errors as the contract's codes, anything else a 500 that names no internals. */
export const onError: ErrorHandler = (err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err.code, err.message, err.extra);
  if (err instanceof HTTPException) {
    if (err.status === 413) return errorResponse(c, "PAYLOAD_TOO_LARGE", "The request body is too large.");
    if (err.status === 400) return errorResponse(c, "INVALID_JSON", "The request body is not valid JSON.");
  }
  // Digit runs of NIK length are masked: /api/v1/wilayah/nik/:nik must never put a NIK in a log.
  console.error(JSON.stringify({ level: "error", request_id: c.get("requestId"), path: c.req.path.replace(/\d{16,}/g, "<redacted>"), error: String(err) }));
  return errorResponse(c, "INTERNAL_ERROR", "Something went wrong on our side. Quote the request id when you contact support.");
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * Which methods an app answers on a path, from its registered routes (middleware left out: it
 * answers nothing by itself). Built on first use: every route is registered by then.
 */
function routeTable(app: Hono<any>) {
  let router: TrieRouter<string> | undefined;
  return (path: string): string[] => {
    if (!router) {
      router = new TrieRouter<string>();
      for (const r of app.routes) if (!isMiddleware(findTargetHandler(r.handler))) router.add(r.method, r.path, r.method);
    }
    const r = router;
    return METHODS.filter((m) => r.match(m, path)[0].length > 0);
  };
}

/**
 * `app.notFound` for `app`: an unknown path is 404 NOT_FOUND; a known path asked with another
 * method is 405 METHOD_NOT_ALLOWED with `Allow` (Hono has no 405 of its own). The middleware
 * answers a CORS preflight (OPTIONS) on an unknown path the same 404, before CORS sees it.
 */
export function unknownRoutes(app: Hono<any>): { notFound: NotFoundHandler; preflight: MiddlewareHandler } {
  const allowed = routeTable(app);
  const notFound = (c: Context) => errorResponse(c, "NOT_FOUND", `No endpoint at ${c.req.method} ${c.req.path}. See the API docs.`);
  return {
    notFound: (c) => {
      const methods = allowed(c.req.path);
      if (methods.length > 0) {
        return errorResponse(c, "METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use ${methods.join(", ")}.`, { headers: { allow: methods.join(", ") } });
      }
      return notFound(c);
    },
    preflight: async (c, next) => {
      if (c.req.method === "OPTIONS" && allowed(c.req.path).length === 0) return notFound(c);
      await next();
    },
  };
}
