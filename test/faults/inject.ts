/**
 * Fault injection for the Worker tests (issue 27). `faultyEnv(env, plan)` wraps the bindings the
 * Worker uses: D1 (`DB`), KV, the per-account Durable Object namespace (`ACCOUNT`), the jobs' R2
 * bucket (`JOBS`) and the rate-limit bindings; `plan` decides, call by call and from a seed, whether a call fails and how:
 * - `throw`: fails before anything happens (a refused connection);
 * - `timeout`: fails the way a timed-out or reset service reports it, before anything happens;
 * - `lost`: the call happens (a write commits), then its answer is lost and the caller sees a failure;
 * - `slow` (only when asked for in `kinds`, D1 and KV): the call happens, its answer arrives `slowMs`
 *   milliseconds later, as production D1 answers in milliseconds where local D1 answers within the same tick.
 * The errors look like the platform's own (D1's and KV's messages, the Durable Object's `retryable`
 * flag), so the Worker meets them as it would in production. `callWith` sends a request to the app
 * with such an env.
 *
 * `faultyFetch(plan, upstream)` does the same for outbound fetch (Tripay, BMKG, mail): the test plays
 * the upstream (a function from request to answer, which may act: create a transaction), and the
 * plan fails a request on its way:
 * - `throw`: the request never leaves (fetch rejects; the upstream saw nothing);
 * - `timeout`: the upstream acts, its answer comes too late (rejects as AbortSignal.timeout does);
 * - `error`: a gateway answers 502 with an HTML page (the upstream saw nothing);
 * - `twice`: the request reaches the upstream twice (a duplicated request: it may act twice); the
 *   caller gets the second answer.
 */
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env as globalEnv } from "cloudflare:workers";
import { vi } from "vitest";
import { endLeases } from "../../src/account/leases";
import { endLogWait } from "../../src/account/request-log";
import { app } from "../../src/app";
import { seeded } from "../../src/lib/random";
import { BASE } from "../helpers";

export type Target = "d1" | "kv" | "account" | "ratelimit" | "fetch" | "r2";
export type FaultKind = "throw" | "timeout" | "lost" | "error" | "twice" | "slow";

/** The ways each target can fail (a binding's call, or an outbound request). */
const KINDS: Record<Target, FaultKind[]> = {
  d1: ["throw", "timeout", "lost"],
  kv: ["throw", "timeout", "lost"],
  account: ["throw", "timeout", "lost"],
  ratelimit: ["throw", "timeout", "lost"],
  fetch: ["throw", "timeout", "error", "twice"],
  r2: ["throw", "timeout", "lost"],
};
/** Kinds a target takes only when a plan names them (so the existing schedules stay as they are). */
const OPT_IN: Partial<Record<Target, FaultKind[]>> = { d1: ["slow"], kv: ["slow"] };

export class FaultPlan {
  readonly #random: () => number;
  #paused = false;
  /** Faults injected, in all and per target and operation (`d1.all`, `account.admit`, ...). */
  injected = 0;
  readonly byOperation = new Map<string, number>();

  constructor(
    seed: number,
    readonly options: {
      rate: number;
      targets: Target[];
      kinds?: FaultKind[];
      only?: (target: Target, operation: string) => boolean;
      /** How late a `slow` call's answer arrives. */
      slowMs?: number;
    },
  ) {
    this.#random = seeded(seed);
  }

  /** No faults while `fn` runs (setting up, checking the outcome). */
  async calm<T>(fn: () => Promise<T>): Promise<T> {
    this.#paused = true;
    try {
      return await fn();
    } finally {
      this.#paused = false;
    }
  }

  decide(target: Target, operation: string): FaultKind | null {
    if (this.#paused || !this.options.targets.includes(target)) return null;
    if (this.options.only && !this.options.only(target, operation)) return null;
    const allowed = [...KINDS[target], ...(OPT_IN[target] ?? [])];
    const kinds = (this.options.kinds ?? KINDS[target]).filter((k) => allowed.includes(k));
    if (kinds.length === 0 || this.#random() >= this.options.rate) return null;
    const kind = kinds[Math.floor(this.#random() * kinds.length)];
    this.injected++;
    const key = `${target}.${operation}`;
    this.byOperation.set(key, (this.byOperation.get(key) ?? 0) + 1);
    return kind;
  }
}

/** The error each service reports, as Cloudflare's runtime words it. */
function failure(target: Target, kind: FaultKind): Error {
  if (target === "d1") {
    return new Error(
      kind === "timeout" ? "D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset." : "D1_ERROR: Network connection lost.",
    );
  }
  if (target === "kv") return new Error(kind === "timeout" ? "KV GET failed: 503 Service Unavailable" : "Network connection lost.");
  if (target === "ratelimit") return new Error("Network connection lost.");
  if (target === "r2") return new Error(kind === "timeout" ? "R2 operation timed out (10001)" : "Network connection lost.");
  const e = new Error(kind === "timeout" ? "Durable Object is overloaded. Too many requests queued." : "Network connection lost.") as Error & {
    retryable?: boolean;
    overloaded?: boolean;
  };
  if (kind === "timeout") e.overloaded = true;
  else e.retryable = true;
  return e;
}

/** Runs `op` under the plan: fails before it, or after it (the answer lost), or not at all. */
async function guarded<T>(plan: FaultPlan, target: Target, operation: string, op: () => Promise<T>): Promise<T> {
  const kind = plan.decide(target, operation);
  if (kind === "throw" || kind === "timeout") throw failure(target, kind);
  const result = await op();
  // The read is done; its answer is on the way (what it read may change meanwhile).
  if (kind === "slow") await new Promise((r) => setTimeout(r, plan.options.slowMs ?? 20));
  if (kind === "lost") throw failure(target, kind);
  return result;
}

const real = new WeakMap<object, D1PreparedStatement>();

function faultyStatement(stmt: D1PreparedStatement, plan: FaultPlan): D1PreparedStatement {
  const wrapped = new Proxy(stmt, {
    get(target, prop) {
      if (prop === "bind") return (...values: unknown[]) => faultyStatement(target.bind(...values), plan);
      if (prop === "all" || prop === "run" || prop === "raw" || prop === "first") {
        return (...args: unknown[]) =>
          guarded(plan, "d1", prop, () => Reflect.apply(target[prop] as (...a: unknown[]) => Promise<unknown>, target, args) as Promise<unknown>);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  real.set(wrapped, stmt);
  return wrapped;
}

function faultyD1(db: D1Database, plan: FaultPlan): D1Database {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => faultyStatement(target.prepare(sql), plan);
      // A batch is one transaction: it fails whole, before or after it commits.
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => guarded(plan, "d1", "batch", () => target.batch(statements.map((s) => real.get(s) ?? s)));
      if (prop === "withSession") return () => faultyD1(target, plan);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function faultyKV(kv: KVNamespace, plan: FaultPlan): KVNamespace {
  return new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        guarded(plan, "kv", String(prop), () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args) as Promise<unknown>);
    },
  });
}

/** The account objects: every method the Worker calls on a stub may fail before or after it runs. */
function faultyNamespace(ns: DurableObjectNamespace, plan: FaultPlan): DurableObjectNamespace {
  const stubOf = (stub: DurableObjectStub) =>
    new Proxy(stub, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function" || prop === "fetch" || typeof prop === "symbol") return value;
        return (...args: unknown[]) =>
          guarded(plan, "account", prop, () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args) as Promise<unknown>);
      },
    });
  return new Proxy(ns, {
    get(target, prop) {
      if (prop === "get") return (id: DurableObjectId, opts?: DurableObjectNamespaceGetDurableObjectOptions) => stubOf(target.get(id, opts));
      if (prop === "getByName") return (name: string, opts?: DurableObjectNamespaceGetDurableObjectOptions) => stubOf(target.getByName(name, opts));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A bucket (bulk jobs' files): every operation may fail before it runs or after (a put stored, its answer lost). */
function faultyR2(bucket: R2Bucket, plan: FaultPlan): R2Bucket {
  return new Proxy(bucket, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function" || typeof prop === "symbol") return value;
      return (...args: unknown[]) =>
        guarded(plan, "r2", prop, () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args) as Promise<unknown>);
    },
  });
}

function faultyLimiter(limiter: RateLimit, plan: FaultPlan): RateLimit {
  return { limit: (opts) => guarded(plan, "ratelimit", "limit", () => limiter.limit(opts)) };
}

export function faultyEnv(env: Env, plan: FaultPlan): Env {
  const out: Record<string, unknown> = {
    ...env,
    DB: faultyD1(env.DB, plan),
    KV: faultyKV(env.KV, plan),
    ACCOUNT: faultyNamespace(env.ACCOUNT as unknown as DurableObjectNamespace, plan),
    JOBS: faultyR2(env.JOBS, plan),
  };
  for (const [name, binding] of Object.entries(env)) {
    if (binding && typeof binding === "object" && "limit" in binding && typeof (binding as RateLimit).limit === "function")
      out[name] = faultyLimiter(binding as RateLimit, plan);
  }
  return out as unknown as Env;
}

/** An upstream as a test plays it: answers a request as the real service would, and may act on it. */
export type Upstream = (request: Request) => Promise<Response>;

/**
 * Outbound fetch through the plan (see the top of this file for the kinds); every request the
 * Worker sends goes to `upstream`, none to the network. Restore with `vi.restoreAllMocks()`.
 */
export function faultyFetch(plan: FaultPlan, upstream: Upstream) {
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const kind = plan.decide("fetch", `${url.host}${url.pathname}`);
    if (kind === "throw") throw new TypeError("fetch failed");
    if (kind === "error") return new Response("<html><body><h1>502 Bad Gateway</h1></body></html>", { status: 502, headers: { "content-type": "text/html" } });
    if (kind === "twice") await upstream(request.clone());
    const answer = await upstream(request);
    if (kind === "timeout") throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    return answer;
  });
}

type CallInit = RequestInit & { key?: string; token?: string; json?: unknown; ip?: string };

/** Background work (waitUntil) of the requests sent so far: lease settles, cache writes. */
const background: Promise<void>[] = [];

/**
 * A request to the app with `env` (faulty or not). Its background work goes on after the answer, as
 * in production (a lease's settle waits for the lease's second); `drain()` waits for all of it.
 */
export async function callWith(env: Env, path: string, init: CallInit = {}): Promise<Response> {
  const { key, token, json: body, ip, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key) headers.set("x-api-key", key);
  if (token) headers.set("authorization", `Bearer ${token}`);
  headers.set("cf-connecting-ip", ip ?? "198.18.0.1");
  if (body !== undefined) headers.set("content-type", "application/json");
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}${path}`, { ...rest, headers, body: body !== undefined ? JSON.stringify(body) : rest.body }), env, ctx);
  background.push(waitOnExecutionContext(ctx).then(() => undefined));
  return res;
}

/**
 * Waits for the background work of every request sent so far. The waits of `userIds` end first:
 * their leases in this isolate (held, or settled early with their timer still running) and their
 * request-log lines are then settled and sent by their own timers' work, through the env of the
 * request that started it (faults included), as at the end of their second, without waiting it out.
 */
export async function drain(...userIds: string[]): Promise<void> {
  for (const id of userIds) {
    endLeases(id);
    endLogWait(id);
  }
  while (background.length) await Promise.allSettled(background.splice(0));
}

/** How many faults a scenario injects at the least: 200, times FAULTS_SCALE (an environment variable, for longer runs). */
const FAULTS_SCALE = Number((globalEnv as unknown as { FAULTS_SCALE?: string }).FAULTS_SCALE ?? 1);
export const MIN_FAULTS = 200 * FAULTS_SCALE;

/** A scenario's time limit: five minutes for MIN_FAULTS at the default scale, as many times more as it injects. */
export const FAULTS_TIMEOUT_MS = 300_000 * Math.max(1, FAULTS_SCALE);

/**
 * Makes the account object of `userId` meet its own D1 (plan, status, balance reads; flushes) through
 * `plan`, until it restarts. The object is woken first; restart it before to start from cold.
 */
export async function faultyAccountObject(userId: string, plan: FaultPlan): Promise<void> {
  const stub = globalEnv.ACCOUNT.get(globalEnv.ACCOUNT.idFromName(userId));
  await runInDurableObject(stub, (agent: object) => {
    // `env` is protected on the class: the object's own bindings, swapped here as the runtime holds them.
    const own = Reflect.get(agent, "env") as Env;
    Object.defineProperty(agent, "env", { value: faultyEnv(own, plan), configurable: true, writable: true });
  });
}
