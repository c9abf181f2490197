/**
 * The account's request log for the routes that are not data endpoints (those log through the
 * catalogue's `record`): tiles, a line per map view (src/account/request-log.ts `logTile`), and
 * bulk jobs, a line per job created. Each middleware runs around its route and logs once the
 * answer is made, with the status, the error the app's handler answered, and the data version.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { logCall, logTile } from "../account/request-log";
import type { CallEnv, DataContext } from "../data/context";
import type { BaseEnv } from "../http/context";
import { requestOrigin } from "../keys/publishable";
import { failureCode } from "../lib/dependency";

const waitUntilOf = (c: Context) => (p: Promise<unknown>) => c.executionCtx.waitUntil(p);

/**
 * Around GET /tiles/{z}/{x}/{y}.mvt: a tile of a key (the call context the gate set) goes into its
 * map view's line (a failed one is a line of its own). The site's map, keyless, is no account's.
 */
export const loggedTiles = createMiddleware<{ Bindings: Env; Variables: BaseEnv["Variables"] & { call?: DataContext } }>(async (c, next) => {
  const startedAt = Date.now();
  await next();
  const principal = c.get("call")?.principal;
  if (!principal) return;
  logTile(
    c.env,
    waitUntilOf(c),
    {
      principal,
      requestId: c.get("requestId"),
      ip: c.req.header("cf-connecting-ip"),
      surface: "tiles",
      method: "GET",
      route: "/tiles/{z}/{x}/{y}.mvt",
      status: c.res.status,
      code: c.error ? failureCode(c.error) : null,
      startedAt,
      version: c.res.headers.get("x-data-version"),
    },
    requestOrigin(c.req.header("origin"), c.req.header("referer")),
  );
});

/** Around POST /api/v1/jobs (a job's calls are its rows, billed as it runs): the job's creation is its line. */
export const loggedJobCreation = createMiddleware<CallEnv>(async (c, next) => {
  const startedAt = Date.now();
  await next();
  const call = c.req.method === "POST" ? c.get("call") : undefined;
  if (!call) return;
  logCall(c.env, call.waitUntil, {
    principal: call.principal,
    requestId: call.requestId,
    ip: call.ip,
    surface: "jobs",
    method: "POST",
    route: "/jobs",
    status: c.res.status,
    code: c.error ? failureCode(c.error) : null,
    startedAt,
    version: null,
  });
});
