import { type Context, Hono, type HonoRequest, type MiddlewareHandler } from "hono";
import { describeRoute } from "hono-openapi";
import { readJsonBody } from "../http/body";
import type { BaseEnv } from "../http/context";
import { lazyOperation } from "../http/docs";
import { queryValues, typedQuery } from "../http/query";
import { requireJsonContentType } from "../http/validate";
import { ApiError } from "../lib/errors";
import type { CallEnv } from "./context";
import { type DataEndpoint, type FileAnswer, isFileEndpoint, versionLabel } from "./endpoint";
import { endpointOperation } from "./openapi";
import { type Admit, serveDataCall, serveFileCall } from "./run";

/**
 * REST routes for declared data endpoints (mounted at /api/v1): query + path params in, the
 * endpoint's JSON out; a POST endpoint takes a JSON object body instead of a query string. Each
 * route carries `gateOf(ep)`, its caller policy (src/catalogue.ts wires in the gate's): the gate
 * decides the caller, rate and quota before the route runs and puts the call's context on the
 * request; `admit` then counts the rest of a batch; a call that fails is released, so only
 * successful calls count. A file endpoint's answer is streamed as it comes.
 */
export function dataRoutes(endpoints: readonly DataEndpoint[], admit: Admit, gateOf: (ep: DataEndpoint) => MiddlewareHandler<CallEnv>): Hono<BaseEnv> {
  const app = new Hono<BaseEnv>();
  for (const ep of endpoints) {
    const documented = describeRoute(lazyOperation(() => endpointOperation(ep)));
    const guard = gateOf(ep);
    const answer = async (c: Context<CallEnv>, raw: Record<string, unknown>) => {
      if (isFileEndpoint(ep)) return fileResponse(c, await serveFileCall(ep, raw, c.get("call"), admit), versionLabel(ep.version));
      const result = await serveDataCall(ep, raw, c.get("call"), admit);
      return c.body(result.json, 200, {
        "content-type": "application/json; charset=utf-8",
        "x-data-version": result.version,
        "x-cache": result.cache,
        // Same for every caller, but only after the key check: let browsers keep it, not shared caches.
        // Answers never cached (weather: fresh upstream data; NIK: personal) are not kept anywhere.
        "cache-control": ep.cacheSeconds > 0 ? "private, max-age=300" : "private, no-store",
      });
    };
    if (ep.method === "POST") {
      app.post(ep.path, documented, guard, requireJsonContentType, async (c) => {
        if (new URL(c.req.url).search) throw new ApiError("INVALID_QUERY", `${ep.path} takes its input in the JSON body, not in the query string.`);
        return answer(c, { ...(await jsonObjectBody(c.req)), ...c.req.param() });
      });
    } else {
      app.get(ep.path, documented, guard, (c) => answer(c, { ...typedQuery(ep.input, queryValues(c.req.queries())), ...c.req.param() }));
    }
  }
  return app;
}

/** A file as a download: its type, a file name to save it under, its size and checksums; kept by nobody but the caller. */
function fileResponse(c: Context<CallEnv>, file: FileAnswer, version: string): Response {
  return c.body(file.body, 200, {
    "x-data-version": version,
    ...file.headers,
    "content-type": file.contentType,
    "content-length": String(file.size),
    "content-disposition": `attachment; filename="${file.filename}"`,
    "cache-control": "private, no-store",
  });
}

/** A POST's body: a JSON object (INVALID_JSON when it is not JSON, VALIDATION_ERROR when it is not an object). */
async function jsonObjectBody(req: HonoRequest): Promise<Record<string, unknown>> {
  const body = await readJsonBody(req);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError("VALIDATION_ERROR", "The request body must be a JSON object.", { details: [{ path: "(root)", message: "expected an object" }] });
  }
  return body as Record<string, unknown>;
}
