/**
 * Rate and quota, decided by the gate before the route runs and before its body is read, as the
 * route's policy meters it (policy.ts `Meter`). One request is counted against one rate once: the
 * data runner, the MCP tools and the bulk jobs' reservation count quota only (src/catalogue.ts,
 * src/account/jobs.ts).
 */
import type { Context } from "hono";
import { admitCall, countRequest, mayCall, mayStillSpend } from "../account/admission";
import type { DataContext } from "../data/context";
import { rangeLengthAtMost } from "../http/range";
import { throttle } from "../lib/throttle";
import { meterTile } from "../tiles/metering";
import { accountOf, type Caller } from "./callers";
import type { GatePolicy } from "./policy";

/**
 * A key caller's call context, the same for every surface (REST data routes, MCP, jobs): built by
 * the gate (src/data/context.ts's DataContext). `prepaid`: the call the gate admitted for a data
 * route, taken once by the data runner (so a batch admits only its other calls).
 */
export type CallContext = DataContext;

/** A range of a file (meter `range`) of at most this many bytes is a tenth of a call; a longer one, or the whole file, a call. */
export const RANGE_CALL_BYTES = 1024 * 1024;

type Admitted = {
  call?: CallContext;
  /** After the route: `failed` (an error, or a 4xx/5xx answer) gives back what was counted for it. */
  settle(failed: boolean, status: number): Promise<void>;
};

const nothing: Admitted = { settle: async () => undefined };

/** What was counted for a request, given back once if its answer is a failure. */
function backOnFailure(giveBack: () => unknown): Admitted["settle"] {
  let given = false;
  return async (failed) => {
    if (!failed || given) return;
    given = true;
    await giveBack();
  };
}

export async function admitBeforeBody(c: Context, policy: GatePolicy, caller: Caller): Promise<Admitted> {
  const principal = accountOf(caller);
  if (!principal) return nothing;
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
  const call: CallContext = { env: c.env, principal, requestId: c.get("requestId"), ip: c.req.header("cf-connecting-ip"), waitUntil };
  const keyed = caller.kind === "secretKey" || caller.kind === "publishableKey";

  switch (policy.meter) {
    case "call": {
      // The plan first (a refusal neither counted nor rate limited), then rate, quota and the count.
      mayCall(principal, policy.endpoint ?? c.req.path, policy.plans);
      const admission = await admitCall(c.env, principal, policy.endpoint ?? c.req.path, waitUntil);
      let taken = false;
      call.prepaid = {
        take: () => {
          if (taken) return false;
          taken = true;
          return true;
        },
      };
      return { call: keyed ? call : undefined, settle: backOnFailure(() => admission.giveBack()) };
    }
    case "tile": {
      const giveBack = await meterTile(principal.keyId, () => admitCall(c.env, principal, policy.endpoint ?? c.req.path, waitUntil));
      return {
        call: keyed ? call : undefined,
        // An empty tile (204), an unchanged one (304) or one not served is free: it goes back to its block.
        settle: async (failed, status) => {
          if (failed || status === 204 || status === 304) giveBack();
        },
      };
    }
    case "range": {
      // HEAD: the file's size, which a GIS tool asks for first: the plan's rate only.
      if (c.req.method === "HEAD") {
        await countRequest(c.env, principal);
        return { call: keyed ? call : undefined, settle: nothing.settle };
      }
      const endpoint = policy.endpoint ?? c.req.path;
      mayCall(principal, endpoint, policy.plans);
      const admit = () => admitCall(c.env, principal, endpoint, waitUntil);
      const length = rangeLengthAtMost(c.req.header("range"));
      if (length !== null && length <= RANGE_CALL_BYTES)
        return { call: keyed ? call : undefined, settle: backOnFailure(await meterTile(principal.keyId, admit)) };
      const admission = await admit();
      return { call: keyed ? call : undefined, settle: backOnFailure(() => admission.giveBack()) };
    }
    case "upload":
      await countRequest(c.env, principal);
      await mayStillSpend(c.env, principal);
      return { call: keyed ? call : undefined, settle: nothing.settle };
    case "rate":
      await countRequest(c.env, principal);
      return { call: keyed ? call : undefined, settle: nothing.settle };
    default:
      await throttle(c.env.REQUEST_LIMITER, `requests:${principal.userId}`, 60);
      return { call: keyed ? call : undefined, settle: nothing.settle };
  }
}
