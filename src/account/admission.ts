/**
 * Admission of data calls, the isolate's side (README.md in this folder: glossary and paths): the
 * plan's per-minute rate, then the account object (object.ts) for quota and credits, with leases
 * (leases.ts) so a busy isolate does not ask for every call. Also how the rest of the product tells
 * the account that something changed.
 */
import { getAgentByName } from "agents";
import { keyRateLimiter } from "../keys/publishable";
import { forgetUserKeys, type Principal } from "../keys/service";
import { ApiError } from "../lib/errors";
import { retried } from "../lib/retry";
import { throttle } from "../lib/throttle";
import { utcDay } from "../lib/time";
import { currentLease, dropLease, HeldLease, holdLease, usableLease } from "./leases";
import type { Counted, LeaseCounts } from "./object";

/**
 * The account object's stub. `getAgentByName` spends an extra round trip initialising the agent's
 * name; that is needed once per object, so this isolate remembers whom it has initialised and then
 * addresses the object directly (one RPC per call instead of two).
 */
const initialised = new Set<string>();
export async function accountObject(env: Env, userId: string) {
  if (initialised.has(userId)) return env.ACCOUNT.get(env.ACCOUNT.idFromName(userId));
  const stub = await getAgentByName(env.ACCOUNT, userId);
  if (initialised.size > 10_000) initialised.clear();
  initialised.add(userId);
  return stub;
}

/** The per-minute limiter of each plan (wrangler.toml [[ratelimits]]); `internal` is not limited. */
function limiterFor(env: Env, plan: string): RateLimit | null {
  const limiters: Record<string, RateLimit | null> = { free: env.RL_FREE, starter: env.RL_STARTER, pro: env.RL_PRO, business: env.RL_BUSINESS, internal: null };
  return plan in limiters ? limiters[plan] : env.RL_FREE;
}

const RATE_PERIOD_SECONDS = 60;

/** The plan every account starts on (migrations/0005_plans.sql): the one `plans: "paid"` endpoints refuse. */
const FREE_PLAN = "free";

/** Whether the caller's plan may call `endpoint`: one for paid plans refuses the free plan (every other plan, and `internal`, may call). */
export function mayCall(principal: Principal, endpoint: string, plans: "paid" | undefined): void {
  if (plans === "paid" && principal.plan === FREE_PLAN) {
    throw new ApiError(
      "PLAN_REQUIRED",
      `${endpoint} is for paid plans; your account is on the free plan. Subscribe to a plan (POST /billing/subscribe) to use it.`,
    );
  }
}

/** An admitted request: `giveBack` uncounts its calls (and credits) when it was not served. Safe to repeat. */
type Admitted = { giveBack(): Promise<void> };

/**
 * Before a data call (REST or MCP) is served: the plan's per-minute rate (429 RATE_LIMITED), then
 * admission (quota, then credits; 402 QUOTA_EXCEEDED), which also counts the call: under a lease
 * this isolate holds (no round trip), else by asking the account object, which may grant a lease.
 * Returns how to give the calls back if the request then fails, so only successful calls are metered.
 * `calls` > 1 (a batch, one call per item) is admitted by the account object alone, whole or not at
 * all; the per-minute rate counts requests, the quota counts items.
 */
export async function admitCall(
  env: Env,
  principal: Principal,
  endpoint: string,
  waitUntil: (p: Promise<unknown>) => void,
  calls = 1,
  opts: { rate?: boolean } = {},
): Promise<Admitted> {
  // rate: false when the request's rate was counted already (the gate counts each request once, src/gate).
  if (opts.rate !== false) await countRequest(env, principal);
  const { userId, keyId } = principal;
  const now = Date.now();

  const lease = calls === 1 ? usableLease(userId, now) : undefined;
  if (lease?.refuses(keyId)) throw refusal("revoked");
  if (lease) {
    const untake = lease.take(keyId, endpoint, now, principal.origin ?? null);
    if (lease.exhausted) waitUntil(settleLease(env, lease));
    let ticket: string | undefined; // made only when needed: most calls under a lease are never given back
    return {
      giveBack: async () => {
        if (untake()) return;
        // The lease was settled with this call in it. Its settle must land first (calls on different
        // stubs are not ordered), then the object gives the call back, once, however often asked.
        await lease.settled;
        ticket ??= crypto.randomUUID();
        await giveBack(env, userId, ticket, { keyId, endpoint, day: utcDay(now), calls: 1, credits: 0 });
      },
    };
  }
  const spent = currentLease(userId);
  if (spent) waitUntil(settleLease(env, spent));

  const object = await accountObject(env, userId);
  // The ticket lets the calls be given back exactly once, also when the object's answer was lost on the way.
  const ticket = crypto.randomUUID();
  let admission: Awaited<ReturnType<typeof object.admit>>;
  try {
    admission = await object.admit({ keyId, endpoint, calls, ticket, now, origin: principal.origin ?? null });
  } catch (e) {
    // It may have counted the calls before its answer was lost: give them back (a no-op if it did not).
    waitUntil(giveBack(env, userId, ticket));
    throw e;
  }
  if (!admission.ok) {
    if (admission.reason === "spend_limit") throw spendLimitReached(admission.limit ?? 0, calls > 1 ? `This request is ${calls} calls` : "This call");
    if (admission.reason) throw refusal(admission.reason);
    throw new ApiError(
      "QUOTA_EXCEEDED",
      calls > 1
        ? `This request is ${calls} calls, more than your plan's monthly quota and your credits can cover; nothing was served. Send fewer items, top up (POST /billing/topup) or subscribe to a larger plan.`
        : "Your plan's monthly quota is used up and you have no credits left. Top up (POST /billing/topup) or subscribe to a larger plan.",
    );
  }
  if (admission.lease) {
    const at = Date.now();
    const granted = new HeldLease(userId, admission.lease, at);
    // Another request of this isolate may have got one first: then this one goes back unused.
    const ms = holdLease(granted, at) ? admission.lease.ms : 0;
    waitUntil(granted.expiry(ms).then(() => settleLease(env, granted)));
  }
  return { giveBack: () => giveBack(env, userId, ticket) };
}

/**
 * The one way calls go back to the account object (object.ts `giveBack`): by the ticket of their
 * admission, or with what a settled lease counted. Idempotent by ticket, so it is tried a few times,
 * each on a new stub (a stub that threw stays broken): a call that was not served must not stay
 * counted because the object was busy for a moment. Logged if it never lands.
 */
async function giveBack(env: Env, userId: string, ticket: string, counted?: Counted): Promise<void> {
  await retried(async () => (await accountObject(env, userId)).giveBack({ ticket, counted }), {
    attempts: 4,
    backoffMs: 50,
    event: "account_give_back_failed",
    fields: { what: counted ? "lease call" : "admission" },
  });
}

/**
 * Whether the account can pay for one more call now (quota, else credits), counting nothing: 402
 * QUOTA_EXCEEDED (or the key's or account's refusal) when not. Under a lease this isolate holds with
 * calls left the answer is known here; otherwise the account object is asked. The gate asks it
 * before reading a bulk job's upload.
 */
export async function mayStillSpend(env: Env, principal: Principal): Promise<void> {
  const lease = usableLease(principal.userId, Date.now());
  if (lease && !lease.refuses(principal.keyId)) return;
  const answer = await (await accountObject(env, principal.userId)).canSpend({ keyId: principal.keyId });
  if (answer.ok) return;
  if (answer.reason === "spend_limit") throw spendLimitReached(answer.limit ?? 0, "A job's first row");
  if (answer.reason) throw refusal(answer.reason);
  throw new ApiError(
    "QUOTA_EXCEEDED",
    "Your plan's monthly quota is used up and you have no credits left: nothing was read. Top up (POST /billing/topup) or subscribe to a larger plan.",
  );
}

/** How every admission (a call's, a job's) answers a revoked key or a suspended account. */
export function refusal(reason: "revoked" | "suspended"): ApiError {
  return reason === "revoked"
    ? new ApiError("INVALID_API_KEY", "The API key is not valid or has been revoked.")
    : new ApiError("ACCOUNT_SUSPENDED", "The account that owns this API key is suspended.");
}

/**
 * The account's own monthly cap on credits spent beyond the quota (PUT /user/alerts) would be
 * passed: 402 SPEND_LIMIT_REACHED, which is not QUOTA_EXCEEDED (credits may well be left).
 */
export function spendLimitReached(limit: number, what: string): ApiError {
  return new ApiError(
    "SPEND_LIMIT_REACHED",
    `${what} would spend credits beyond your monthly spend limit of ${limit.toLocaleString("en")} credits (past the plan's quota); nothing was served or spent. Raise or remove the limit (PUT /user/alerts), or wait for the next month (UTC).`,
  );
}

/**
 * A request that is no data call (MCP's initialize, tools/list, notifications): it counts against
 * the key's per-minute rate like a call, but not against the quota (429 RATE_LIMITED). A publishable
 * key has its own rate as well (src/keys/publishable.ts), asked first: a page's key at its limit
 * spends none of the account's.
 */
export async function countRequest(env: Env, principal: Principal): Promise<void> {
  if (principal.publishable) await throttle(keyRateLimiter(env, principal.publishable.ratePerMinute), `key:${principal.keyId}`, RATE_PERIOD_SECONDS);
  const limiter = limiterFor(env, principal.plan);
  if (limiter) await throttle(limiter, `account:${principal.userId}`, RATE_PERIOD_SECONDS);
}

/** Settles in flight, per account, so a usage read can wait for them. */
const settling = new Map<string, Set<Promise<void>>>();

/**
 * Reports a lease's counts to the account object (once; tried twice: docs/api.md bounds what a
 * settle that fails twice loses to the lease's calls).
 */
function settleLease(env: Env, lease: HeldLease): Promise<void> {
  dropLease(lease);
  const send = async (counts: LeaseCounts) => {
    await retried(async () => (await accountObject(env, lease.userId)).settle({ leaseId: lease.lease.id, counts }), {
      attempts: 2,
      backoffMs: 0,
      event: "lease_settle_failed",
      fields: { user_id: lease.userId, lease_id: lease.lease.id },
    });
  };
  const done = lease.settle(send);
  const set = settling.get(lease.userId) ?? new Set();
  settling.set(lease.userId, set.add(done));
  void done.finally(() => {
    set.delete(done);
    if (set.size === 0 && settling.get(lease.userId) === set) settling.delete(lease.userId);
  });
  return done;
}

/** Settles this isolate's lease of the account and waits for settles in flight, so reads that follow are exact. */
export async function settleLeasesOf(env: Env, userId: string): Promise<void> {
  const lease = currentLease(userId);
  if (lease) await settleLease(env, lease);
  await Promise.all(settling.get(userId) ?? []);
}

/**
 * After anything that changes what an account may do (payment, grant, plan change, suspension):
 * cached key lookups (they carry plan and status) are dropped, and the account object reads its
 * plan and balance again.
 */
export async function accountChanged(env: Env, userId: string): Promise<void> {
  await Promise.all([forgetUserKeys(env, userId), settleLeasesOf(env, userId), accountObject(env, userId).then((a) => a.refresh())]);
}

/**
 * After keys were revoked (their D1 rows and cached lookups already changed): this isolate's lease
 * of the account is settled (so its next call asks the account object), and the object refuses the
 * keys from now on and names them in every lease it grants. Other isolates stop serving them when
 * the lease they hold ends: at most LEASE_MS (1 s) after this returns, whatever KV still says.
 */
export async function keysRevoked(env: Env, userId: string, keyIds: string[]): Promise<void> {
  if (keyIds.length === 0) return;
  await settleLeasesOf(env, userId);
  await (await accountObject(env, userId)).revokeKeys({ keyIds });
}

export async function pendingDebits(env: Env, userId: string): Promise<number> {
  await settleLeasesOf(env, userId);
  return (await accountObject(env, userId)).pendingDebits();
}
