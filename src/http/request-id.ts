/**
 * The request id on every request and response (`x-request-id`, `error.request_id`, audit rows):
 * always one this Worker made. A client's own `x-request-id` is not adopted: it would be stored in
 * audit rows as if we had issued it, and could repeat another request's id there.
 */
import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import type { BaseEnv } from "./context";

// headerName "" makes hono's middleware ignore the incoming header; the answer's header is set here.
const fresh = requestId({ headerName: "" });

export const serverRequestId: MiddlewareHandler<BaseEnv> = (c, next) =>
  fresh(c, async () => {
    c.header("x-request-id", c.get("requestId"));
    await next();
  });
