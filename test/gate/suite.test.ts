/**
 * The security suite, generated from the route table (src/gate routePolicies: every route the
 * router serves, with the caller policy it declares): each route is tried as an attacker would,
 * with every case its policy makes meaningful, and must refuse the way the policy says. A route
 * gets these cases by being declared; nothing here names a route.
 *
 * Cases: no credential; a malformed, unknown and revoked key (a malformed, forged and ended
 * session for session routes; a key where a session is wanted); a publishable key from another
 * origin and from none; a publishable key on a secret-only route; a spent quota (402); a spent rate
 * (429); a body over the route's limit, refused before it is read (413, nothing stored); HEAD; an
 * unknown method. Routes that take the key in a query parameter (`keyParam`, the GIS routes) are
 * tried there too: an unknown, revoked or publishable key in it, the parameter twice, a header and a
 * parameter naming different keys, and a good key there never reaching the answer.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { clientNetwork, type GatePolicy, routePolicies } from "../../src/gate";
import { bodyLimitOf } from "../../src/gate/body";
import { generateKeySecret } from "../../src/keys/secret";
import type { ErrorCode } from "../../src/lib/errors";
import { ogcCode, speaksOgc } from "../../src/ogc/protocol";
import { BASE, call, createKey, json, login, makeAdmin, setPlan, verifiedDeveloper } from "../helpers";
import { spendQuota, spendRate } from "./helpers";

const SHOP = "https://shop.example.com";
const SAMPLE: Record<string, string> = { z: "8", x: "203", y: "132.mvt", lang: "en", provider: "github", slug: "quickstart", nik: "3273010101900001" };

/**
 * A request path for a route pattern: each parameter a plausible value (the gate refuses before any
 * handler reads it), with the extension its pattern ends in (`:level{[^/]+\.fgb}`: 32.fgb).
 */
const concrete = (pattern: string) =>
  pattern.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string, re?: string) => {
    const value = SAMPLE[name] ?? (name.toLowerCase().includes("id") ? "x_1" : "32");
    const ext = re && /\\\.(\w+)\}$/.exec(re)?.[1];
    return ext && !value.endsWith(`.${ext}`) ? `${value}.${ext}` : value;
  });

type Route = { method: string; path: string; policy: GatePolicy };
const routes = routePolicies(app).filter((r): r is Route => r.policy !== undefined);

/** A method the path serves under no route (the suite's unknown method): PUT, else PATCH, else DELETE. */
function unservedMethod(path: string): string {
  const served = new Set(routes.filter((x) => x.path === path).map((x) => x.method));
  if (served.has("ALL")) return "PUT";
  return ["PUT", "PATCH", "DELETE"].find((m) => !served.has(m)) ?? "PUT";
}

const takes = (p: GatePolicy, ...kinds: GatePolicy["callers"][number][]) => kinds.some((k) => p.callers.includes(k));
const keyRoute = (p: GatePolicy) => takes(p, "secretKey", "publishableKey");
const sessionRoute = (p: GatePolicy) => !keyRoute(p) && takes(p, "session", "admin");
const portalRoute = (p: GatePolicy) => takes(p, "portalSession");
const open = (p: GatePolicy) => takes(p, "anyone", "portalVisitor");
const methodOf = (r: Route) => (r.method === "ALL" ? "POST" : r.method);
const hasBody = (m: string) => m !== "GET" && m !== "HEAD";

/** Credentials the cases use, made once. */
type Creds = {
  key: string;
  publishable: string;
  revoked: string;
  token: string;
  endedToken: string;
  adminToken: string;
  spent: { key: string; token: string };
  rate: { key: string; token: string; adminToken: string; userId: string; adminId: string };
};
let creds: Creds;

beforeAll(async () => {
  const dev = await verifiedDeveloper();
  await setPlan(dev.data.id, "starter");
  const key = (await createKey(dev.token)).key;
  const pubRes = await call("/user/keys", { method: "POST", token: dev.token, json: { name: "page", kind: "publishable", allowed_origins: [SHOP] } });
  const publishable = (await json(pubRes)).data.key as string;
  const doomed = await createKey(dev.token, "doomed");
  expect((await call(`/user/keys/${doomed.id}`, { method: "DELETE", token: dev.token })).status).toBe(200);
  const ended = await json(await login(dev.data.email, "correct horse"));
  expect((await call("/auth/logout", { method: "POST", token: ended.token })).status).toBeLessThan(300);
  const admin = await makeAdmin();

  const spentDev = await verifiedDeveloper();
  await setPlan(spentDev.data.id, "starter");
  const spentKey = (await createKey(spentDev.token)).key;
  await spendQuota(spentDev.data.id);

  const rateDev = await verifiedDeveloper();
  await setPlan(rateDev.data.id, "starter");
  const rateKey = (await createKey(rateDev.token)).key;
  const rateAdmin = await makeAdmin();
  creds = {
    key,
    publishable,
    revoked: doomed.key,
    token: dev.token,
    endedToken: ended.token,
    adminToken: admin.token,
    spent: { key: spentKey, token: spentDev.token },
    rate: { key: rateKey, token: rateDev.token, adminToken: rateAdmin.token, userId: rateDev.data.id, adminId: rateAdmin.data.id },
  };
}, 120_000);

/** The path each answer was asked at (its error format follows the path). */
const sentTo = new WeakMap<Response, string>();

/** Tripay's callback needs a deployment with Tripay keys to judge a signature: the suite's app has test ones. */
/** A request as a case sends it; `query` is appended to the route's path (`?api_key=...`). */
type SendInit = { method?: string; headers?: Record<string, string>; body?: BodyInit; ip?: string; query?: string };

async function send(r: Route, init: SendInit = {}): Promise<Response> {
  const res = await sendOnce(r, init);
  sentTo.set(res, concrete(r.path));
  return res;
}

async function sendOnce(r: Route, init: SendInit): Promise<Response> {
  const method = init.method ?? methodOf(r);
  if (r.policy.callers.includes("tripay")) {
    const headers = new Headers(init.headers);
    headers.set("cf-connecting-ip", init.ip ?? "192.0.2.200");
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${BASE}${concrete(r.path)}`, { method, headers, body: init.body }),
      { ...env, TRIPAY_API_KEY: "k", TRIPAY_PRIVATE_KEY: "suite-private-key", TRIPAY_MERCHANT_CODE: "T0001" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  }
  const needsBody = hasBody(method) && init.body === undefined;
  return call(`${concrete(r.path)}${init.query ?? ""}`, {
    method,
    headers: { ...(needsBody ? { "content-type": "application/json" } : {}), ...init.headers },
    body: needsBody ? "{}" : init.body,
    redirect: "manual",
    ip: init.ip,
  });
}

/**
 * The refusal the policy promises: status, and the error code (a JSON body, or a portal page's
 * status). The GIS routes answer OGC exceptions (`{"code": "MissingApiKey", "status": 401, ...}`), as
 * GDAL and QGIS show them, for the gate's refusals too.
 */
async function refused(res: Response, status: number, code?: ErrorCode) {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(status);
  if (!code || !(res.headers.get("content-type") ?? "").includes("json")) return;
  const body = JSON.parse(text);
  if (speaksOgc(sentTo.get(res) ?? "")) expect(body).toMatchObject({ code: ogcCode(code), status });
  else expect(body.error.code).toBe(code);
}

const cookie = (token: string) => ({ cookie: `__Host-wl_session=${token}`, origin: BASE });

type Case = { name: string; run: () => Promise<void> };

/** The cases a route's policy makes meaningful. */
function casesOf(r: Route): Case[] {
  const p = r.policy;
  const cases: Case[] = [];
  const add = (name: string, run: () => Promise<void>) => cases.push({ name, run });
  const m = methodOf(r);

  if (keyRoute(p)) {
    const missing = async (res: Response) => {
      await refused(res, 401, "MISSING_API_KEY");
      if (p.challenge) expect(res.headers.get("www-authenticate")).toBe(p.challenge);
    };
    add("no credential: 401 MISSING_API_KEY", async () => missing(await send(r)));
    add("a malformed key: 401 INVALID_API_KEY", async () => refused(await send(r, { headers: { "x-api-key": "not a key" } }), 401, "INVALID_API_KEY"));
    add("an unknown key: 401 INVALID_API_KEY", async () => refused(await send(r, { headers: { "x-api-key": generateKeySecret() } }), 401, "INVALID_API_KEY"));
    add("a revoked key: 401 INVALID_API_KEY", async () => refused(await send(r, { headers: { "x-api-key": creds.revoked } }), 401, "INVALID_API_KEY"));
    add("a publishable key from another origin: 403 ORIGIN_NOT_ALLOWED", async () =>
      refused(await send(r, { headers: { "x-api-key": creds.publishable, origin: "https://evil.example" } }), 403, "ORIGIN_NOT_ALLOWED"),
    );
    add("a publishable key from no origin: 403 ORIGIN_NOT_ALLOWED", async () =>
      refused(await send(r, { headers: { "x-api-key": creds.publishable } }), 403, "ORIGIN_NOT_ALLOWED"),
    );
    if (!takes(p, "publishableKey"))
      add("a publishable key from its own origin on a secret-only route: 403 SECRET_KEY_REQUIRED", async () =>
        refused(await send(r, { headers: { "x-api-key": creds.publishable, origin: SHOP } }), 403, "SECRET_KEY_REQUIRED"),
      );
  }
  if (p.keyParam) {
    const param = p.keyParam;
    const inQuery = (key: string) => `?${param}=${encodeURIComponent(key)}`;
    if (keyRoute(p)) {
      add(`an unknown key in ?${param}: 401 INVALID_API_KEY`, async () =>
        refused(await send(r, { query: inQuery(generateKeySecret()) }), 401, "INVALID_API_KEY"),
      );
      add(`a revoked key in ?${param}: 401 INVALID_API_KEY`, async () => refused(await send(r, { query: inQuery(creds.revoked) }), 401, "INVALID_API_KEY"));
      add(`a publishable key in ?${param} from no origin: 403 ORIGIN_NOT_ALLOWED`, async () =>
        refused(await send(r, { query: inQuery(creds.publishable) }), 403, "ORIGIN_NOT_ALLOWED"),
      );
      if (!takes(p, "publishableKey"))
        add(`a publishable key in ?${param} from its own origin on a secret-only route: 403 SECRET_KEY_REQUIRED`, async () =>
          refused(await send(r, { query: inQuery(creds.publishable), headers: { origin: SHOP } }), 403, "SECRET_KEY_REQUIRED"),
        );
      add(`?${param} twice: 400 INVALID_QUERY`, async () =>
        refused(await send(r, { query: `${inQuery(creds.key)}&${param}=${encodeURIComponent(creds.key)}` }), 400, "INVALID_QUERY"),
      );
      add(`x-api-key and ?${param} naming different keys: 400 INVALID_QUERY`, async () =>
        refused(await send(r, { query: inQuery(creds.key), headers: { "x-api-key": creds.spent.key } }), 400, "INVALID_QUERY"),
      );
    }
    // Whatever the route answers (a keyless document, a 404 for the suite's made-up path), the key sent in its URL is not in it.
    add(`a key in ?${param} is taken out of the URL: not in the answer`, async () => {
      const res = await send(r, { query: inQuery(creds.key) });
      const text = await res.text();
      expect(text).not.toContain(creds.key);
      for (const [name, value] of res.headers) expect(value, name).not.toContain(creds.key);
    });
  }
  if (sessionRoute(p)) {
    add("no credential: 401 MISSING_TOKEN", async () => refused(await send(r), 401, "MISSING_TOKEN"));
    add("a malformed session token: 401 UNAUTHORIZED", async () => refused(await send(r, { headers: { authorization: "Bearer !!" } }), 401, "UNAUTHORIZED"));
    add("a forged session token: 401 INVALID_TOKEN", async () =>
      refused(await send(r, { headers: { authorization: `Bearer ${creds.token.slice(0, -4)}AAAA` } }), 401, "INVALID_TOKEN"),
    );
    add("an ended session: 401 INVALID_TOKEN", async () =>
      refused(await send(r, { headers: { authorization: `Bearer ${creds.endedToken}` } }), 401, "INVALID_TOKEN"),
    );
    add("an API key where a session is wanted: 401 MISSING_TOKEN", async () =>
      refused(await send(r, { headers: { "x-api-key": creds.key } }), 401, "MISSING_TOKEN"),
    );
    if (takes(p, "admin"))
      add("a session of a non-admin: 403 FORBIDDEN", async () =>
        refused(await send(r, { headers: { authorization: `Bearer ${creds.token}` } }), 403, "FORBIDDEN"),
      );
  }
  if (portalRoute(p)) {
    const toLogin = async (res: Response) => {
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/portal/login");
    };
    add("no session: the login page", async () => toLogin(await send(r, { headers: { origin: BASE } })));
    add("a forged session cookie: the login page", async () => toLogin(await send(r, { headers: cookie(`${creds.token.slice(0, -4)}AAAA`) })));
    add("an ended session: the login page", async () => toLogin(await send(r, { headers: cookie(creds.endedToken) })));
    add("a bearer token or an API key is no portal session: the login page", async () =>
      toLogin(await send(r, { headers: { authorization: `Bearer ${creds.token}`, "x-api-key": creds.key, origin: BASE } })),
    );
    if (p.admin) add("a session of a non-admin: 403", async () => refused(await send(r, { headers: cookie(creds.token) }), 403));
  }
  if (takes(p, "tripay")) {
    add("no signature: 401 INVALID_SIGNATURE", async () => refused(await send(r, { body: "{}" }), 401, "INVALID_SIGNATURE"));
    add("a wrong signature: 401 INVALID_SIGNATURE", async () =>
      refused(await send(r, { body: "{}", headers: { "x-callback-signature": "0".repeat(64) } }), 401, "INVALID_SIGNATURE"),
    );
  }

  // A spent quota: refused before anything is served or read.
  if (p.meter === "call" || p.meter === "tile" || p.meter === "upload" || p.meter === "range") {
    add("a spent quota: 402 QUOTA_EXCEEDED", async () =>
      refused(await send(r, { headers: portalRoute(p) ? cookie(creds.spent.token) : { "x-api-key": creds.spent.key } }), 402, "QUOTA_EXCEEDED"),
    );
  }

  // A spent rate: the limiter this policy counts, spent for the caller, then 429 with Retry-After.
  const rate = rateOf(r);
  if (rate)
    add(`a spent rate (${rate.what}): 429 RATE_LIMITED`, async () => {
      const { limiter, key, times, headers, ip } = rate.make();
      for (let attempt = 0; ; attempt++) {
        const res = await send(r, { headers, ip });
        if (res.status === 429 || attempt === 2) {
          expect(res.headers.get("retry-after")).toBe("60");
          return refused(res, 429, "RATE_LIMITED");
        }
        await res.body?.cancel();
        await spendRate(limiter, key, times);
      }
    });

  // A body over the route's limit: 413 before it is read (so nothing it would have made is stored).
  if (hasBody(m)) {
    const limit = bodyLimitOf(p);
    add(`a body over its ${limit.toLocaleString("en")} bytes: 413 PAYLOAD_TOO_LARGE, not read`, async () => {
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 64 * 1024;
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
          if (pulled > 4 * 1024 * 1024) controller.close();
        },
      });
      const res = await send(r, {
        body,
        headers: { "content-type": "application/json", "content-length": String(limit + 1), ...(portalRoute(p) ? cookie(creds.token) : {}) },
      });
      await refused(res, 413, "PAYLOAD_TOO_LARGE");
      expect(pulled).toBeLessThanOrEqual(1024 * 1024);
    });
  }

  // HEAD: answered as GET only where declared (public pages), else 405 before anything else.
  if (r.method === "GET" || r.method === "ALL") {
    const served = p.head ?? (takes(p, "anyone") && p.meter === undefined && p.throttle === undefined);
    add(served ? "HEAD: answered as GET, without a body" : "HEAD: 405 METHOD_NOT_ALLOWED with Allow", async () => {
      const res = await send(r, { method: "HEAD" });
      expect((await res.arrayBuffer()).byteLength).toBe(0);
      if (served) expect(res.status).not.toBe(405);
      else {
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBeTruthy();
      }
    });
  }
  // An unknown method: 405 with Allow, whoever asks (a method its path does not serve).
  const unknownMethod = unservedMethod(r.path);
  add(`an unknown method (${unknownMethod}): 405 METHOD_NOT_ALLOWED with Allow`, async () => {
    const res = await send(r, { method: unknownMethod, body: "{}", headers: { "content-type": "application/json" } });
    await refused(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toBeTruthy();
  });
  return cases;
}

/** Which limiter a route counts a request against, for whom, and how to be that caller (made when the case runs: the credentials exist then). */
type Rate = { limiter: RateLimit; key: string; times: number; headers: Record<string, string>; ip?: string };
function rateOf(r: Route): { what: string; make: () => Rate } | undefined {
  const p = r.policy;
  const ip = "192.0.2.77";
  const plan = (headers: () => Record<string, string>) => ({
    what: "the plan's",
    make: () => ({ limiter: env.RL_STARTER, key: `account:${creds.rate.userId}`, times: 120, headers: headers() }),
  });
  const requests = (admin: boolean, headers: () => Record<string, string>) => ({
    what: "the account's requests",
    make: () => ({ limiter: env.REQUEST_LIMITER, key: `requests:${admin ? creds.rate.adminId : creds.rate.userId}`, times: 300, headers: headers() }),
  });
  const metered = p.meter !== undefined;
  if (keyRoute(p) && metered) return plan(() => ({ "x-api-key": creds.rate.key }));
  if (portalRoute(p) && (p.meter === "rate" || p.meter === "upload")) return plan(() => cookie(creds.rate.token));
  if (keyRoute(p)) return requests(false, () => ({ "x-api-key": creds.rate.key }));
  if (sessionRoute(p)) {
    const admin = takes(p, "admin") && !takes(p, "session");
    return requests(admin, () => ({ authorization: `Bearer ${admin ? creds.rate.adminToken : creds.rate.token}` }));
  }
  if (portalRoute(p)) return requests(p.admin === true, () => cookie(p.admin ? creds.rate.adminToken : creds.rate.token));
  if (p.throttle && open(p)) {
    const throttle = p.throttle;
    return {
      what: `the ${throttle} allowance per client network`,
      make: () => ({ limiter: throttle === "demo" ? env.DEMO_LIMITER : env.MAP_LIMITER, key: `${throttle}:${clientNetwork(ip)}`, times: 600, headers: {}, ip }),
    };
  }
  return undefined;
}

describe("the security suite, generated from the route table", () => {
  const all = routes.flatMap((r) => casesOf(r).map((c) => ({ route: `${r.method} ${r.path}`, ...c })));
  it("covers every declared route", () => {
    expect(new Set(all.map((c) => c.route)).size).toBe(routes.length);
    console.log(`security suite: ${routes.length} routes, ${all.length} cases`);
  });
  it.each(all)("$route: $name", async ({ run }) => run(), 30_000);
});
