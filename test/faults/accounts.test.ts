/**
 * Issue 27, scenario 4: registration, login, API-key creation and revocation while D1, KV and the
 * rate limiters fail on a seeded schedule. Every answer is the right one or a 503
 * SERVICE_UNAVAILABLE (never a 500, never a wrong 401 for a right password); a request that failed
 * may be sent again. Invariants after every schedule:
 * - no half-created user: a user row exists only whole (its password logs in), and a retried sign-up
 *   ends in an account that logs in;
 * - no half-created key: every active key was shown to its owner (a key whose creation answered 503
 *   is discarded, or its failed discard is logged); every key row has its `key_created` event and
 *   every revoked key its `key_revoked`;
 * - a key shown to the user works; a key whose revocation answered 2xx never works again (through
 *   faulty and calm bindings alike), and no cache still vouches for it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { signReset } from "../../src/auth/tokens";
import { hashKeySecret } from "../../src/keys/secret";
import { seeded } from "../../src/lib/random";
import { json, seedUserWithKey, uniqueEmail } from "../helpers";
import { callWith, drain, FAULTS_TIMEOUT_MS, FaultPlan, faultyEnv, MIN_FAULTS } from "./inject";

const KEYS = 3;
let ipSeq = 0;
/** A client IP per request, so the per-IP throttles (sign-up, login, unknown keys) only count what a test means them to. */
const ip = () => `198.19.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`;
const one = async <T>(sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .first<T>();
const count = async (sql: string, ...params: unknown[]) => (await one<{ n: number }>(sql, ...params))!.n;

/** A 503 SERVICE_UNAVAILABLE as the contract words it. */
async function expectUnavailable(res: Response, what: string) {
  const body = await json(res);
  expect([res.status, body.error?.code], `${what}: ${JSON.stringify(body)}`).toEqual([503, "SERVICE_UNAVAILABLE"]);
  expect(res.headers.get("retry-after")).toBe("2");
  expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
}

async function run(seed: number) {
  const random = seeded(seed * 31_337);
  const faults = new FaultPlan(seed, { rate: 0.2, targets: ["d1", "kv", "ratelimit"] });
  const faulty = faultyEnv(env, faults);
  const logged = vi.spyOn(console, "error");
  const what = (s: string) => `seed ${seed}: ${s}`;
  const email = uniqueEmail();
  const password = "correct horse battery";

  // Sign-up, sent again after a 503 (a 409 then means the first one was recorded after all).
  let signedUp = false;
  let unavailable = 0;
  for (let attempt = 0; !signedUp; attempt++) {
    expect(attempt, what("sign-up never answered")).toBeLessThan(30);
    const res = await callWith(faulty, "/auth/register", { method: "POST", json: { email, password, name: "Ani" }, ip: ip() });
    if (res.status === 201 || (res.status === 409 && attempt > 0)) {
      signedUp = true;
      await res.arrayBuffer();
    } else await expectUnavailable(res, what(`sign-up ${attempt}`)).then(() => unavailable++);
    // Whole or absent: a user row with this email logs in with its password.
    const user = await faults.calm(() => one<{ id: string; name: string }>("SELECT id, name FROM users WHERE email = ?", email));
    if (user) expect(user.name, what("user row")).toBe("Ani");
    else expect(signedUp, what("answered but not recorded")).toBe(false);
  }
  const userId = (await one<{ id: string }>("SELECT id FROM users WHERE email = ?", email))!.id;
  await env.DB.prepare("UPDATE users SET email_verified = 1 WHERE id = ?").bind(userId).run();

  // Logins: the right password logs in or is a 503 (never a 401); a wrong one is a 401 or a 503 (never a token).
  let token = "";
  for (let attempt = 0; !token; attempt++) {
    expect(attempt, what("login never answered")).toBeLessThan(30);
    if (random() < 0.3) {
      const wrong = await callWith(faulty, "/auth/login", { method: "POST", json: { email, password: "not the password" }, ip: ip() });
      if (wrong.status === 401) expect((await json(wrong)).error.code).toBe("INVALID_CREDENTIALS");
      else await expectUnavailable(wrong, what("wrong login"));
    }
    const res = await callWith(faulty, "/auth/login", { method: "POST", json: { email, password }, ip: ip() });
    if (res.status === 200) token = (await json(res)).token;
    else await expectUnavailable(res, what(`login ${attempt}`)).then(() => unavailable++);
  }
  const me = await faults.calm(() => callWith(faulty, "/auth/me", { token }));
  expect(me.status, what("the login's token")).toBe(200);

  // Keys: each creation asked once; a 201's key works at once.
  const shown: { id: string; key: string }[] = [];
  for (let i = 0; i < KEYS; i++) {
    const res = await callWith(faulty, "/user/keys", { method: "POST", token, json: { name: `key ${i}` } });
    if (res.status !== 201) {
      await expectUnavailable(res, what(`create key ${i}`));
      unavailable++;
      continue;
    }
    const { id, key } = (await json(res)).data;
    shown.push({ id, key });
    const call = await faults.calm(() => callWith(env, "/api/v1/wilayah/provinsi/32", { key, ip: ip() }));
    expect(call.status, what(`shown key ${id}`)).toBe(200);
    await call.arrayBuffer();
  }

  // Revocations, sent again until answered 2xx, with calls between (through faults) filling and reading the caches.
  for (const k of shown) {
    for (let attempt = 0; ; attempt++) {
      expect(attempt, what(`revoke ${k.id} never answered`)).toBeLessThan(30);
      const use = await callWith(faulty, "/api/v1/wilayah/provinsi/33", { key: k.key, ip: ip() });
      expect([200, 401, 503], what(`call before the revoke answered: ${use.status}`)).toContain(use.status);
      await use.arrayBuffer();
      const res = await callWith(faulty, `/user/keys/${k.id}`, { method: "DELETE", token });
      if (res.status === 200) {
        expect((await json(res)).data.revoked_at, what("revoked_at")).not.toBeNull();
        break;
      }
      await expectUnavailable(res, what(`revoke ${k.id}`));
      unavailable++;
    }
    // Never again: through faults (401 or 503, never 200) and calmly (401).
    for (let n = 0; n < 3; n++) {
      const res = await callWith(faulty, "/api/v1/wilayah/provinsi/35", { key: k.key, ip: ip() });
      expect([401, 503], what(`revoked key ${k.id} through faults: ${res.status}`)).toContain(res.status);
      await res.arrayBuffer();
    }
    const calmCall = await faults.calm(() => callWith(env, "/api/v1/wilayah/provinsi/35", { key: k.key, ip: ip() }));
    expect(calmCall.status, what(`revoked key ${k.id}`)).toBe(401);
    await calmCall.arrayBuffer();
    // No cache still vouches for it: KV's lookup is gone, or older than the revocation's marker.
    const hash = await hashKeySecret(k.key);
    const cached = await env.KV.get<{ ok: boolean; at?: number }>(`apikey:${hash}`, "json");
    const marker = await env.KV.get(`apikey-forgotten:${hash}`);
    if (cached?.ok) expect(marker !== null && (cached.at ?? 0) <= Number(marker) + 5_000, what(`KV still vouches for ${k.id}`)).toBe(true);
  }

  // The unknown-key throttle fails open like every throttle: a key nobody has is refused as such, never a 503.
  const limiters = new FaultPlan(seed + 500_000, { rate: 0.5, targets: ["ratelimit"] });
  for (let n = 0; n < 4; n++) {
    const res = await callWith(faultyEnv(env, limiters), "/api/v1/wilayah/provinsi/32", { key: `wk_live_${"A".repeat(31)}${n}`, ip: ip() });
    expect((await json(res)).error.code, what("unknown key while the limiter fails")).toBe("INVALID_API_KEY");
  }

  await faults.calm(() => drain(userId));
  // No half-created key, and the audit trail has every key's creation and revocation once.
  const discardFailures = logged.mock.calls
    .flat()
    .map(String)
    .filter((l) => l.includes("api_key_discard_failed")).length;
  logged.mockRestore();
  const active = (await env.DB.prepare("SELECT id FROM api_keys WHERE user_id = ? AND revoked_at IS NULL").bind(userId).all<{ id: string }>()).results;
  const unseen = active.filter((r) => !shown.some((k) => k.id === r.id));
  expect(unseen.length, what(`active keys never shown: ${JSON.stringify(unseen)}`)).toBeLessThanOrEqual(discardFailures);
  const keys = (await env.DB.prepare("SELECT id, revoked_at FROM api_keys WHERE user_id = ?").bind(userId).all<{ id: string; revoked_at: number | null }>())
    .results;
  for (const k of keys) {
    const created = await count("SELECT count(*) AS n FROM audit_events WHERE event = 'key_created' AND json_extract(detail, '$.key_id') = ?", k.id);
    expect(created, what(`key_created events of ${k.id}`)).toBe(1);
    if (shown.some((s) => s.id === k.id)) {
      const revoked = await count("SELECT count(*) AS n FROM audit_events WHERE event = 'key_revoked' AND json_extract(detail, '$.key_id') = ?", k.id);
      expect(revoked, what(`key_revoked events of ${k.id}`)).toBe(1);
    }
  }
  // An event for a key that does not exist would be a creation recorded half.
  const events = await count(
    "SELECT count(*) AS n FROM audit_events WHERE event = 'key_created' AND subject_id = ? AND json_extract(detail, '$.key_id') NOT IN (SELECT id FROM api_keys)",
    userId,
  );
  expect(events, what("key_created events without a key")).toBe(0);
  return { injected: faults.injected + limiters.injected, unavailable, shown: shown.length };
}

/**
 * A takeover by password reset (the account was registered by someone who never proved they own the
 * email, and has keys): the link is used again after a 503, or a new one asked for once it is used
 * up. Invariant after every answer: once the account's owner is proven (the reset set the password),
 * every key made before is revoked and refused; the takeover is recorded once; a 503 before the
 * password was set leaves the link usable.
 */
async function takeover(seed: number) {
  const faults = new FaultPlan(seed + 2_000_000, { rate: 0.2, targets: ["d1", "kv", "account"] });
  const faulty = faultyEnv(env, faults);
  const what = (s: string) => `seed ${seed}: ${s}`;
  const { userId, secret } = await seedUserWithKey({ plan: "free" });
  await env.DB.prepare("UPDATE users SET owner_proven = 0 WHERE id = ?").bind(userId).run();
  const before = (await env.DB.prepare("SELECT id FROM api_keys WHERE user_id = ?").bind(userId).all<{ id: string }>()).results.map((r) => r.id);
  // The key is in use (cached in KV and in the account object) before the owner takes the account back.
  const use = await callWith(env, "/api/v1/wilayah/provinsi/32", { key: secret, ip: ip() });
  expect(use.status).toBe(200);
  await use.arrayBuffer();
  let linkId = "";
  const newLink = async () => {
    const id = crypto.randomUUID();
    linkId = id;
    await env.DB.prepare("INSERT INTO password_resets (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
      .bind(id, userId, Date.now(), Date.now() + 30 * 60_000)
      .run();
    return signReset(env, userId, id);
  };
  let token = await newLink();
  let unavailable = 0;
  for (let attempt = 0; ; attempt++) {
    expect(attempt, what("reset never answered")).toBeLessThan(30);
    const res = await callWith(faulty, "/auth/reset-password", { method: "POST", json: { token, password: "the owner's own" }, ip: ip() });
    const body = await json(res);
    const proven = await faults.calm(async () => (await one<{ p: number }>("SELECT owner_proven AS p FROM users WHERE id = ?", userId))!.p === 1);
    if (proven) {
      const active = await faults.calm(() =>
        count(`SELECT count(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL AND id IN (${before.map(() => "?").join(",")})`, userId, ...before),
      );
      expect(active, what(`attempt ${attempt}: the owner is proven, keys made before still active`)).toBe(0);
    }
    if (res.status === 200) {
      expect(body.data.takeover || proven, what("answered")).toBe(true);
      break;
    }
    if (res.status === 400 && body.error.code === "INVALID_RESET_TOKEN") token = await faults.calm(newLink);
    else {
      await expectUnavailable(Response.json(body, { status: res.status, headers: res.headers }), what(`reset ${attempt}`));
      unavailable++;
      // "Nothing was changed": a reset that failed before setting the password leaves its link usable
      if (!proven) {
        const used = await faults.calm(() => one<{ u: number | null }>("SELECT used_at AS u FROM password_resets WHERE id = ?", linkId));
        expect(used?.u ?? null, what(`reset ${attempt}: a 503 used up the link`)).toBeNull();
      }
    }
  }
  await faults.calm(() => drain(userId));
  const refused = await callWith(env, "/api/v1/wilayah/provinsi/32", { key: secret, ip: ip() });
  expect(refused.status, what("a key made before the takeover")).toBe(401);
  await refused.arrayBuffer();
  expect(await count("SELECT count(*) AS n FROM audit_events WHERE event = 'account_takeover' AND subject_id = ?", userId), what("takeover events")).toBe(1);
  return { injected: faults.injected, unavailable };
}

describe("sign-up, login, key creation and revocation while D1, KV and the rate limiters fail", () => {
  it(
    `a takeover by password reset: once the owner is proven, every key made before is revoked, and the takeover recorded once (at least ${MIN_FAULTS} faults)`,
    async () => {
      let injected = 0;
      let unavailable = 0;
      let schedules = 0;
      for (let seed = 1; injected < MIN_FAULTS; seed++, schedules++) {
        const r = await takeover(seed);
        injected += r.injected;
        unavailable += r.unavailable;
      }
      console.log(`takeover: ${injected} faults injected over ${schedules} schedules, ${unavailable} answers 503`);
      expect(unavailable).toBeGreaterThan(0);
    },
    FAULTS_TIMEOUT_MS,
  );

  it(
    `no half-created user or key; a shown key works; a revoked key never works again (at least ${MIN_FAULTS} faults)`,
    async () => {
      let injected = 0;
      let unavailable = 0;
      let shown = 0;
      let schedules = 0;
      for (let seed = 1; injected < MIN_FAULTS; seed++, schedules++) {
        const r = await run(seed);
        injected += r.injected;
        unavailable += r.unavailable;
        shown += r.shown;
      }
      console.log(`accounts: ${injected} faults injected over ${schedules} schedules, ${unavailable} answers 503, ${shown} keys shown and revoked`);
      expect(unavailable).toBeGreaterThan(0);
    },
    FAULTS_TIMEOUT_MS,
  );
});
