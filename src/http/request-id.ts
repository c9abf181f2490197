/**
 * The request id on every request and response (`x-request-id`, `error.request_id`, audit rows):
 * always one this Worker made. A client's own `x-request-id` is not adopted: it would be stored in
 * audit rows as if we had issued it, and could repeat another request's id there. The id is a UUID
 * version 7 (its first 48 bits are the time): the account's request log (src/account/request-log.ts)
 * finds a call by its id through that time.
 */
import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import { timeOrderedUuid } from "../lib/crypto";
import type { BaseEnv } from "./context";

// headerName "" makes hono's middleware ignore the incoming header; the answer's header is set here.
const fresh = requestId({ headerName: "", generator: () => timeOrderedUuid() });

export const serverRequestId: MiddlewareHandler<BaseEnv> = (c, next) =>
  fresh(c, async () => {
    c.header("x-request-id", c.get("requestId"));
    await next();
  });
