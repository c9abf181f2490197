/**
 * Issue 33, section 3: a valid key is never refused because others behind the same address (carrier
 * NAT) sent unknown keys; an enumerator still meets 429 and its D1 reads stay bounded. Section 7: key
 * creations and revocations have a per-user limit.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashKeySecret } from "../../src/keys/secret";
import { call, createKey, expectError, json, verifiedDeveloper } from "../helpers";

const random = () => `wk_live_${crypto.randomUUID().replaceAll("-", "")}`;
const data = (key: string, ip: string) => call("/api/v1/wilayah/provinsi", { key, ip });

/** Random keys from `ip` until the first 429 (the address is past its budget of unknown keys). */
async function refuse(ip: string) {
  for (let i = 0; i < 41; i++) {
    const res = await data(random(), ip);
    if (res.status === 429) return expectError(res, 429, "RATE_LIMITED");
    await expectError(res, 401, "INVALID_API_KEY");
  }
  throw new Error("never refused");
}

/** A statement that reads a key's row: what an unknown key costs the database. */
const readsKeys = (sql: unknown) => /^\s*select\b/i.test(String(sql)) && /from "?api_keys"?/i.test(String(sql));

/**
 * An unknown key from `ip`: its answer and whether D1 was read for it. Only key lookups count: the
 * background work of earlier calls (last-use and request-log writes) may prepare statements on the
 * same binding while a probe runs, which a busy machine once counted as a twelfth read.
 */
async function probe(ip: string) {
  const d1 = vi.spyOn(env.DB, "prepare");
  const res = await data(random(), ip);
  const readD1 = d1.mock.calls.some((c) => readsKeys(c[0]));
  d1.mockRestore();
  return { res, readD1 };
}

describe("a shared address past its budget of unknown keys (issue 33)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("a key created a moment ago by someone else behind it works at once (written through to KV)", async () => {
    const ip = "192.0.2.210";
    // Both budgets spent (63 misses: in one window even if a window ends mid-test): 429 before D1.
    for (let i = 0; i < 63; i++) await (await data(random(), ip)).arrayBuffer();
    const closed = await probe(ip);
    await expectError(closed.res, 429, "RATE_LIMITED");
    expect(closed.readD1).toBe(false);

    const dev = await verifiedDeveloper();
    const fresh = await createKey(dev.token);
    const d1 = vi.spyOn(env.DB, "prepare");
    const res = await data(fresh.key, ip);
    expect(res.status).toBe(200);
    // Its lookup came from KV: the D1 statements of the call are the account's, never the key's.
    expect(d1.mock.calls.some((c) => readsKeys(c[0]) && /key_hash/i.test(String(c[0])))).toBe(false);
  });

  it("a valid key whose cache entry expired is read from D1 and served; unknown keys still get 429, with D1 reads bounded", async () => {
    const ip = "192.0.2.211";
    const dev = await verifiedDeveloper();
    const known = await createKey(dev.token);
    await refuse(ip);
    // Its KV entry expired (KV's TTL), and this instance never saw it.
    await env.KV.delete(`apikey:${await hashKeySecret(known.key)}`);
    const res = await data(known.key, ip);
    expect(res.status).toBe(200);
    await res.arrayBuffer();

    // The enumerator behind it: 429 every time; D1 is read for at most 11 of its keys (10 within the
    // second budget, and the one that finds it spent), then never.
    const probes = [];
    const window = () => Math.floor(Date.now() / 60_000); // the limiters count per minute
    const first = window();
    for (let i = 0; i < 15; i++) probes.push(await probe(ip));
    for (const p of probes) await expectError(p.res, 429, "RATE_LIMITED");
    // On a busy machine the probes may straddle a minute: the next minute brings its budget of 10.
    expect(probes.filter((p) => p.readD1).length).toBeLessThanOrEqual(11 + 10 * (window() - first));
    expect(probes.filter((p) => p.readD1).length, "the second budget's keys are looked up").toBeGreaterThanOrEqual(10);
    if (window() === first) expect(probes.at(-1)!.readD1).toBe(false);
    // Another address is not affected.
    await expectError(await data(random(), "192.0.2.212"), 401, "INVALID_API_KEY");
  });
});

describe("key creations and revocations per user (issue 33, section 7)", () => {
  it("past 30 a minute: 429 RATE_LIMITED with Retry-After, for creating and revoking; other users unaffected", async () => {
    const dev = await verifiedDeveloper();
    let limited: Response | undefined;
    let allowed = 0;
    // Fixed one-minute windows: 61 changes exceed 30 in one window even if a window ends mid-test.
    for (let i = 0; i < 61 && !limited; i++) {
      const created = await call("/user/keys", { method: "POST", token: dev.token, json: { name: `k${i}` } });
      if (created.status === 429) limited = created;
      else {
        expect(created.status).toBe(201);
        allowed++;
        const revoked = await call(`/user/keys/${(await json(created)).data.id}`, { method: "DELETE", token: dev.token });
        if (revoked.status === 429) limited = revoked;
        else {
          expect(revoked.status).toBe(200);
          allowed++;
        }
      }
    }
    expect(limited).toBeDefined();
    expect(allowed).toBeGreaterThanOrEqual(30);
    expect(limited!.headers.get("retry-after")).toBe("60");
    const error = await expectError(limited!, 429, "RATE_LIMITED");
    expect(error.message).toMatch(/API key creations, rolls and revocations per minute/);
    // Both kinds of change are refused while the budget is spent.
    await expectError(await call("/user/keys", { method: "POST", token: dev.token, json: { name: "more" } }), 429, "RATE_LIMITED");
    const keys = (await json(await call("/user/keys", { token: dev.token }))).data;
    const active = keys.find((k: { revoked_at: string | null }) => k.revoked_at === null);
    if (active) await expectError(await call(`/user/keys/${active.id}`, { method: "DELETE", token: dev.token }), 429, "RATE_LIMITED");
    // Another user is not affected.
    const other = await verifiedDeveloper();
    expect((await createKey(other.token)).key).toMatch(/^wk_live_/);
  });
});
