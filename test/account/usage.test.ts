import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AccountObject } from "../../src/account/object";
import { call, createKey, expectError, json, setPlan, usageOf, verifiedDeveloper, waitForTotal } from "../helpers";

describe("usage", () => {
  it("counts 100 concurrent successful calls exactly, per key, endpoint and day; errors are not metered", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal"); // 100 calls at once: above the free plan's per-minute rate
    const a = await createKey(dev.token, "a");
    const b = await createKey(dev.token, "b");
    const calls = Array.from({ length: 100 }, (_, i) =>
      call(i % 4 === 0 ? `/api/v1/wilayah/search?q=bandung&page=${(i % 3) + 1}` : `/api/v1/wilayah/provinsi?page=${(i % 2) + 1}`, {
        key: i < 60 ? a.key : b.key,
      }),
    );
    expect((await Promise.all(calls)).every((r) => r.status === 200)).toBe(true);
    // failures: not metered
    expect((await call("/api/v1/wilayah/provinsi/99", { key: a.key })).status).toBe(404);
    expect((await call("/api/v1/wilayah/provinsi?page=0", { key: a.key })).status).toBe(400);

    const u = await waitForTotal(dev.token, 100);
    const today = new Date().toISOString().slice(0, 10);
    expect(u.month).toBe(today.slice(0, 7));
    expect(u.total).toBe(100);
    expect(u.by_key).toEqual(
      expect.arrayContaining([
        { key_id: a.id, name: "a", prefix: a.key.slice(0, 12), count: 60 },
        { key_id: b.id, name: "b", prefix: b.key.slice(0, 12), count: 40 },
      ]),
    );
    expect(u.by_endpoint).toEqual([
      { endpoint: "/wilayah/provinsi", count: 75 },
      { endpoint: "/wilayah/search", count: 25 },
    ]);
    expect(u.by_day).toEqual([{ day: today, count: 100 }]);
    expect((await usageOf(dev.token, "2020-01")).total).toBe(0);

    // A flush is scheduled (alarm, 60 s); run it now: one aggregate batch to D1 and each key's last use.
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    await runInDurableObject(stub, async (object: AccountObject) => {
      expect(object.getSchedules().map((s) => s.callback)).toEqual(["flush"]);
      await object.flush();
      await object.flush(); // nothing left: changes nothing
    });
    const d1 = await env.DB.prepare("SELECT sum(count) AS n, count(*) AS rows FROM usage_daily WHERE user_id = ? AND count > 0")
      .bind(dev.data.id)
      .first<{ n: number; rows: number }>();
    expect(d1).toEqual({ n: 100, rows: 4 });
    const keys = (await json(await call("/user/keys", { token: dev.token }))).data;
    expect(keys.every((k: { last_used_at: string | null }) => k.last_used_at !== null)).toBe(true);
  });

  it("under admission leases: sequential and concurrent calls are counted exactly, and a failed call is given back", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    const { key, id } = await createKey(dev.token);
    // The first call asks the account object and brings back a lease; the next ones are admitted here.
    expect((await call("/api/v1/wilayah/provinsi/32", { key })).status).toBe(200);
    expect((await call("/api/v1/wilayah/provinsi/32", { key })).status).toBe(200);
    // the object has seen only the first call; the second is held in the lease until it is settled
    const month = new Date().toISOString().slice(0, 7);
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    expect(await runInDurableObject(stub, async (object: AccountObject) => (await object.usage(month)).reduce((n, r) => n + r.count, 0))).toBe(1);
    for (let i = 0; i < 10; i++) expect((await call("/api/v1/wilayah/provinsi/32", { key })).status).toBe(200);
    const burst = await Promise.all(Array.from({ length: 40 }, () => call("/api/v1/wilayah/kabupaten/32.73", { key })));
    expect(burst.every((r) => r.status === 200)).toBe(true);
    // not found and invalid input under the lease: not metered
    expect((await call("/api/v1/wilayah/provinsi/99", { key })).status).toBe(404);
    expect((await call("/api/v1/wilayah/search?q=x", { key })).status).toBe(400);
    const u = await usageOf(dev.token); // reading usage settles this isolate's lease first
    expect(u.total).toBe(52);
    expect(u.by_key).toEqual([{ key_id: id, name: "test key", prefix: key.slice(0, 12), count: 52 }]);
    expect(u.by_endpoint).toEqual([
      { endpoint: "/wilayah/kabupaten/:id", count: 40 },
      { endpoint: "/wilayah/provinsi/:id", count: 12 },
    ]);
    // more calls after the read: a new lease, counted on top
    for (let i = 0; i < 3; i++) expect((await call("/api/v1/wilayah/provinsi/32", { key })).status).toBe(200);
    expect((await usageOf(dev.token)).total).toBe(55);
  });

  it("month must be YYYY-MM", async () => {
    const dev = await verifiedDeveloper();
    for (const m of ["2026-13", "2026-1", "abc"]) await expectError(await call(`/user/usage?month=${m}`, { token: dev.token }), 400, "INVALID_QUERY");
    await expectError(await call("/user/usage"), 401, "MISSING_TOKEN");
  });
  it("a month whose usage spans more than 100 keys (revoked ones too) is read, each key with its name (D1: 100 bound parameters per statement)", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    // 105 keys made and revoked earlier (written directly: through HTTP the key-change limit, 30 a
    // minute, would make this test wait minutes), each used once this month through the account object.
    const now = Date.now();
    const made = Array.from({ length: 105 }, (_, i) => ({ id: `key_many${i}_${dev.data.id}`, name: `k${i}`, prefix: `wil_many${String(i).padStart(3, "0")}` }));
    await env.DB.batch(
      made.map((k) =>
        env.DB.prepare("INSERT INTO api_keys (id, user_id, name, prefix, last4, key_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, 'abcd', ?, ?, ?)").bind(
          k.id,
          dev.data.id,
          k.name,
          k.prefix,
          `hash-${k.id}`,
          now - 60_000,
          now - 1_000,
        ),
      ),
    );
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    await runInDurableObject(stub, async (object: AccountObject) => {
      for (const k of made) expect(await object.admit({ keyId: k.id, endpoint: "/wilayah/provinsi/:id", now })).toMatchObject({ ok: true });
    });
    const u = await usageOf(dev.token);
    expect(u.total).toBe(105);
    expect(u.by_key).toHaveLength(105);
    expect(u.by_key).toEqual(expect.arrayContaining(made.map((k) => ({ key_id: k.id, name: k.name, prefix: k.prefix, count: 1 }))));
  }); // 315 requests (create, call, revoke per key): about 20 s on a quiet machine
});
