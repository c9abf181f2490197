import { Hono } from "hono";
import { listRequests } from "../account/requests";
import { requestLogQuery, requestLogResponse } from "../account/schemas";
import { requireUser } from "../gate";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { queryParams } from "../http/validate";

/** Mounted at /user/requests: the signed-in developer's own request log. */
export const requestRoutes = new Hono<BaseEnv>();

requestRoutes.get(
  "/",
  doc({
    operationId: "listRequests",
    tags: ["Usage"],
    summary: "Your request log",
    description:
      "Your account's calls, newest first: REST and MCP data calls (failed and refused ones too), OGC items pages and FlatGeobuf range reads, tiles by map view, bulk jobs by job. Each with its key's label, status, error code, latency, request id and data version; the caller's IP for secret keys. Filter by `request_id` (paste it from an error answer), `key`, `status` (`4xx`, `402`), `code`, `route`, `surface` and time (`from`, `to`); page with `cursor`. Kept 7 days (longer on larger plans: `meta.kept_days`). A call appears within about a second (a map view within 10 seconds).",
    caller: "bearer",
    input: "query",
    ok: { description: "A page of your calls", schema: requestLogResponse },
  }),
  requireUser,
  queryParams(requestLogQuery),
  async (c) => {
    const q = c.req.valid("query");
    const page = await listRequests(c.env, c.get("user").id, q, (p) => c.executionCtx.waitUntil(p));
    return c.json({ data: page.items, meta: { next_cursor: page.next_cursor, limit: q.limit, kept_days: page.kept_days } });
  },
);
