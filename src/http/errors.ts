/**
 * The handlers that write every error answer: `onError` (an ApiError as itself, a dependency's
 * passing failure 503, anything else a 500 that names no internals) and `unknownRoutes` (404 for
 * an unknown path, 405 with `Allow` for a known path asked with another method).
 */
import type { Context, ErrorHandler, Hono, Env as HonoEnv, MiddlewareHandler, NotFoundHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { findTargetHandler, isMiddleware } from "hono/utils/handler";
import { failureAnswer } from "../lib/dependency";
import { ApiError, ERROR_STATUS, type ErrorCode, errorBody } from "../lib/errors";

/** The contract's error response; an ApiError's headers (e.g. Retry-After) go with it. */
function errorResponse(c: Context, code: ErrorCode, message: string, extra: ApiError["extra"] = {}) {
  for (const [k, v] of Object.entries(extra.headers ?? {})) c.header(k, v);
  return c.json(errorBody(code, message, c.get("requestId") as string | undefined, extra.details), ERROR_STATUS[code]);
}

/**
 * `app.onError`: every failure answered as lib/dependency.ts `failureAnswer` decides (an ApiError
 * as itself, a dependency that failed for a moment 503, anything else a 500 that names no
 * internals), in the contract's body. (Bad JSON bodies are ApiErrors already: http/body.ts.)
 */
export const onError: ErrorHandler = (err, c) => {
  const answer = failureAnswer(err, { request_id: c.get("requestId"), path: c.req.path });
  return errorResponse(c, answer.code, answer.message, answer.extra);
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
 * answers a CORS preflight (OPTIONS) on an unknown path the same 404, before CORS sees it. Both are
 * written by `answer`, the app's own error handler, so a surface with its own error format (the
 * portal's pages, the OGC exceptions) answers its unknown addresses in it too.
 */
export function unknownRoutes<E extends HonoEnv>(
  app: Hono<E>,
  answer: ErrorHandler<E> = onError,
): { notFound: NotFoundHandler<E>; preflight: MiddlewareHandler<E> } {
  const allowed = routeTable(app);
  const notFound = (c: Context<E>) => answer(new ApiError("NOT_FOUND", `No endpoint at ${c.req.method} ${c.req.path}. See the API docs.`), c);
  return {
    notFound: (c) => {
      const methods = allowed(c.req.path);
      if (methods.length > 0) {
        return answer(
          new ApiError("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use ${methods.join(", ")}.`, { headers: { allow: methods.join(", ") } }),
          c,
        );
      }
      return notFound(c);
    },
    preflight: async (c, next) => {
      if (c.req.method === "OPTIONS" && allowed(c.req.path).length === 0) return notFound(c);
      await next();
    },
  };
}
