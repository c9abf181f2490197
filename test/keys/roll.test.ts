import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AccountObject } from "../../src/account/object";
import { call, createKey, expectError, json, usageOf, verifiedDeveloper } from "../helpers";

const data = (key: string, headers: Record<string, string> = {}) => call("/api/v1/wilayah/provinsi/32", { key, headers });
const roll = (token: string, id: string, body: Record<string, unknown>) => call(`/user/keys/${id}/roll`, { method: "POST", token, json: body });
/** Moves this Worker's clock (Date only: timers and the rate limiters keep real time). */
const at = (ms: number) => vi.useFakeTimers({ now: ms, toFake: ["Date"] });

describe("rolling a key", () => {
  afterEach(() => vi.useRealTimers());

  it("a new secret at once; the old one works for the grace the owner picked, then 401 INVALID_API_KEY", async () => {
    const dev = await verifiedDeveloper();
    const k = await createKey(dev.token);
    expect((await data(k.key)).status).toBe(200); // the old secret's lookup is now cached (memory and KV)
    const start = Date.now();
    const res = await roll(dev.token, k.id, { grace_seconds: 3600 });
    expect(res.status).toBe(200);
    const rolled = (await json(res)).data;
    expect(rolled.id).toBe(k.id);
    expect(rolled.key).toMatch(/^wk_live_/);
    expect(rolled.key).not.toBe(k.key);
    expect(rolled.last4).toBe(rolled.key.slice(-4));
    expect(Date.parse(rolled.previous_secret_until) - start).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(Date.parse(rolled.previous_secret_until) - start).toBeLessThanOrEqual(3600_000 + 5000);

    expect((await data(rolled.key)).status).toBe(200);
    expect((await data(k.key)).status).toBe(200); // in its grace
    at(start + 3590_000);
    expect((await data(k.key)).status).toBe(200);
    at(start + 3606_000);
    const e = await expectError(await data(k.key), 401, "INVALID_API_KEY");
    expect(e.message).toContain("rolled");
    expect((await data(rolled.key)).status).toBe(200);
    // Read again from D1 past its grace (its cached lookups dropped): still refused.
    await env.KV.delete(`apikey:${await sha(k.key)}`);
    await expectError(await data(k.key), 401, "INVALID_API_KEY");
    // The listing no longer names a grace once it is over.
    const listed = (await json(await call("/user/keys", { token: dev.token }))).data.find((x: { id: string }) => x.id === k.id);
    expect(listed.previous_secret_until).toBeNull();
  });

  it("grace 0 stops the old secret now; a second roll stops the secret still in the first one's grace; grace above 7 days is refused", async () => {
    const dev = await verifiedDeveloper();
    const k = await createKey(dev.token);
    expect((await data(k.key)).status).toBe(200);
    const first = (await json(await roll(dev.token, k.id, { grace_seconds: 0 }))).data;
    await expectError(await data(k.key), 401, "INVALID_API_KEY");
    expect((await data(first.key)).status).toBe(200);

    const second = (await json(await roll(dev.token, k.id, { grace_seconds: 86_400 }))).data;
    expect((await data(first.key)).status).toBe(200); // the secret before: in its grace
    const third = (await json(await roll(dev.token, k.id, { grace_seconds: 86_400 }))).data;
    await expectError(await data(first.key), 401, "INVALID_API_KEY"); // two rolls ago: stopped
    expect((await data(second.key)).status).toBe(200);
    expect((await data(third.key)).status).toBe(200);

    for (const body of [{ grace_seconds: 7 * 86_400 + 1 }, { grace_seconds: -1 }, { grace_seconds: 1.5 }, {}])
      await expectError(await roll(dev.token, k.id, body), 400, "VALIDATION_ERROR");
    await expectError(await roll(dev.token, "key_nope", { grace_seconds: 0 }), 404, "NOT_FOUND");
    const other = await verifiedDeveloper();
    await expectError(await roll(other.token, k.id, { grace_seconds: 0 }), 404, "NOT_FOUND");
    // A revoked key does not roll, and its secret in grace stops with it.
    expect((await call(`/user/keys/${k.id}`, { method: "DELETE", token: dev.token })).status).toBe(200);
    await expectError(await data(second.key), 401, "INVALID_API_KEY");
    await expectError(await data(third.key), 401, "INVALID_API_KEY");
    await expectError(await roll(dev.token, k.id, { grace_seconds: 0 }), 409, "KEY_REVOKED");
  });

  it("a publishable key rolls to a new wk_pub_ secret with the same origins", async () => {
    const dev = await verifiedDeveloper();
    const res = await call("/user/keys", {
      method: "POST",
      token: dev.token,
      json: { name: "page", kind: "publishable", allowed_origins: ["https://shop.example.com"] },
    });
    const k = (await json(res)).data;
    const rolled = (await json(await roll(dev.token, k.id, { grace_seconds: 60 }))).data;
    expect(rolled.key).toMatch(/^wk_pub_/);
    expect(rolled.allowed_origins).toEqual(["https://shop.example.com"]);
    expect((await data(rolled.key, { origin: "https://shop.example.com" })).status).toBe(200);
    await expectError(await data(rolled.key, { origin: "https://evil.test" }), 403, "ORIGIN_NOT_ALLOWED");
  });
});

describe("expiry", () => {
  afterEach(() => vi.useRealTimers());

  it("a key with expires_at works until then, wherever its lookup is cached, then 401 INVALID_API_KEY; a roll may move it", async () => {
    const dev = await verifiedDeveloper();
    const start = Date.now();
    const expiresAt = new Date(start + 2 * 3600_000).toISOString();
    const res = await call("/user/keys", { method: "POST", token: dev.token, json: { name: "temp", expires_at: expiresAt } });
    expect(res.status).toBe(201);
    const k = (await json(res)).data;
    expect(k.expires_at).toBe(expiresAt);
    expect((await data(k.key)).status).toBe(200);
    at(start + 2 * 3600_000 + 1000);
    const e = await expectError(await data(k.key), 401, "INVALID_API_KEY");
    expect(e.message).toContain("expired");
    // An expired key does not count against the 20 active keys (it is listed until revoked).
    const count = await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE user_id = ? AND revoked_at IS NULL").bind(dev.data.id).first<{ n: number }>();
    expect(count!.n).toBe(1);

    // A roll that sets a new expiry: the new secret works; the old one's cached lookup is dropped and read again.
    const rolled = (await json(await roll(dev.token, k.id, { grace_seconds: 0, expires_at: new Date(start + 5 * 3600_000).toISOString() }))).data;
    expect((await data(rolled.key)).status).toBe(200);
    await expectError(await data(k.key), 401, "INVALID_API_KEY");
    // ...and one that removes it.
    const forever = (await json(await roll(dev.token, k.id, { grace_seconds: 0, expires_at: null }))).data;
    expect(forever.expires_at).toBeNull();
    at(start + 400 * 86_400_000);
    expect((await data(forever.key)).status).toBe(200);
  });
});

describe("last use", () => {
  it("each key's last-used time and origin reach the listing at the account object's flush (no D1 write per call)", async () => {
    const dev = await verifiedDeveloper();
    const pub = (
      await json(
        await call("/user/keys", { method: "POST", token: dev.token, json: { name: "page", kind: "publishable", allowed_origins: ["https://*.example.com"] } }),
      )
    ).data;
    const secret = await createKey(dev.token);
    const prepare = vi.spyOn(env.DB, "prepare");
    expect((await data(pub.key, { origin: "https://a.example.com" })).status).toBe(200);
    expect((await data(pub.key, { origin: "https://b.example.com" })).status).toBe(200);
    expect((await data(secret.key)).status).toBe(200); // a server: no origin
    expect(prepare.mock.calls.filter(([sql]) => /update\s+"?api_keys/i.test(String(sql)))).toEqual([]);
    vi.restoreAllMocks();

    await usageOf(dev.token); // settles this isolate's lease (the calls after the first were admitted under it)
    await runInDurableObject(env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id)), (object: AccountObject) => object.flush());
    const keys = (await json(await call("/user/keys", { token: dev.token }))).data as {
      id: string;
      last_used_at: string | null;
      last_used_origin: string | null;
    }[];
    const p = keys.find((x) => x.id === pub.id)!;
    const s = keys.find((x) => x.id === secret.id)!;
    expect(p.last_used_at).not.toBeNull();
    expect(p.last_used_origin).toBe("https://b.example.com");
    expect(s.last_used_at).not.toBeNull();
    expect(s.last_used_origin).toBeNull();
  });
});

async function sha(secret: string): Promise<string> {
  const { hashKeySecret } = await import("../../src/keys/secret");
  return hashKeySecret(secret);
}
