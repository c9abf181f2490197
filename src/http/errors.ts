/**
 * The handlers that write every error answer: `onError` (an ApiError as itself, Hono's body errors
 * as the contract's codes, anything else a 500 that names no internals) and `unknownRoutes` (404 for
 * an unknown path, 405 with `Allow` for a known path asked with another method).
 */
import type { Context, ErrorHandler, Hono, Env as HonoEnv, MiddlewareHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { TrieRouter } from "hono/router/trie-router";
import { findTargetHandler, isMiddleware } from "hono/utils/handler";
import { failureText, isTransientFailure, serviceUnavailable } from "../lib/dependency";
import { ApiError, ERROR_STATUS, type ErrorCode, errorBody } from "../lib/errors";
import { errorText, log } from "../lib/log";

/** The contract's error response; an ApiError's headers (e.g. Retry-After) go with it. */
function errorResponse(c: Context, code: ErrorCode, message: string, extra: ApiError["extra"] = {}) {
  for (const [k, v] of Object.entries(extra.headers ?? {})) c.header(k, v);
  return c.json(errorBody(code, message, c.get("requestId") as string | undefined, extra.details), ERROR_STATUS[code]);
}

/**
 * `app.onError`: ApiErrors as themselves, Hono's body errors as the contract's codes, a dependency
 * that failed for a moment (lib/dependency.ts) as 503 SERVICE_UNAVAILABLE, anything else a 500 that
 * names no internals.
 */
export const onError: ErrorHandler = (err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err.code, err.message, err.extra);
  if (err instanceof HTTPException) {
    if (err.status === 413) return errorResponse(c, "PAYLOAD_TOO_LARGE", "The request body is too large.");
    if (err.status === 400) return errorResponse(c, "INVALID_JSON", "The request body is not valid JSON.");
  }
  if (isTransientFailure(err)) {
    log.warn("dependency_unavailable", { request_id: c.get("requestId"), path: c.req.path, error: failureText(err) });
    const unavailable = serviceUnavailable();
    return errorResponse(c, unavailable.code, unavailable.message, unavailable.extra);
  }
  // /api/v1/wilayah/nik/:nik must never put a NIK in a log, in whatever form it was written: the
  // logger masks NIK-like digit runs, separators included (lib/log.ts maskNik), in every field.
  log.error("unhandled_error", { request_id: c.get("requestId"), path: c.req.path, error: errorText(err) });
  return errorResponse(c, "INTERNAL_ERROR", "Something went wrong on our side. Quote the request id when you contact support.");
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * Which methods an app answers on a path, from its registered routes (middleware left out: it
 * answers nothing by itself). Built on first use: every route is registered by then.
 */
function routeTable<E extends HonoEnv>(app: Hono<E>) {
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
export function unknownRoutes<E extends HonoEnv>(app: Hono<E>): { notFound: NotFoundHandler; preflight: MiddlewareHandler } {
  const allowed = routeTable(app);
  const notFound = (c: Context) => errorResponse(c, "NOT_FOUND", `No endpoint at ${c.req.method} ${c.req.path}. See the API docs.`);
  return {
    notFound: (c) => {
      const methods = allowed(c.req.path);
      if (methods.length > 0) {
        return errorResponse(c, "METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use ${methods.join(", ")}.`, {
          headers: { allow: methods.join(", ") },
        });
      }
      return notFound(c);
    },
    preflight: async (c, next) => {
      if (c.req.method === "OPTIONS" && allowed(c.req.path).length === 0) return notFound(c);
      await next();
    },
  };
}
