import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AccountAgent } from "../../src/account/agent";
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
    await runInDurableObject(stub, async (agent: AccountAgent) => {
      expect(agent.getSchedules().map((s) => s.callback)).toEqual(["flush"]);
      await agent.flush();
      await agent.flush(); // nothing left: changes nothing
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
    expect(await runInDurableObject(stub, async (agent: AccountAgent) => (await agent.usage(month)).reduce((n, r) => n + r.count, 0))).toBe(1);
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

  it("a lease's reservation never makes credits go: an exact call it pushed past the quota is given back when the lease ends unused", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('lease120', 'Lease test', 0, 120, 30, '[]', 51, 0)",
    ).run();
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "lease120");
    await env.DB.prepare("INSERT INTO credit_ledger (user_id, amount, reason, ref, created_at) VALUES (?, 5, 'test', ?, ?)")
      .bind(dev.data.id, `test:${dev.data.id}`, Date.now())
      .run();
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    const now = Date.now();
    await runInDurableObject(stub, async (agent: AccountAgent) => {
      // isolate A: its call brings back a lease of (120 - 1) / 20 = 5 calls
      const first = await agent.admit(dev.data.id, "key_a", "/wilayah/provinsi", now);
      expect(first).toMatchObject({ ok: true, charged: false, lease: { calls: 5 } });
      // isolate B asks call by call (leases it is offered are settled unused at once)
      for (let used = 1; used < 115; used++) {
        const a = await agent.admit(dev.data.id, "key_b", "/wilayah/provinsi", now);
        expect(a).toMatchObject({ ok: true, charged: false });
        if (a.ok && a.lease) await agent.settle(dev.data.id, a.lease.id, []);
      }
      // 115 counted + 5 reserved = the quota: the next call spends a credit
      expect(await agent.admit(dev.data.id, "key_b", "/wilayah/provinsi", now)).toMatchObject({ ok: true, charged: true });
      expect(await agent.pendingDebits()).toBe(1);
      // A served 2 of its 5: the 3 unused cover that call, so the credit comes back
      await agent.settle(dev.data.id, first.ok ? first.lease!.id : "", [
        { key_id: "key_a", endpoint: "/wilayah/provinsi", day: new Date(now).toISOString().slice(0, 10), count: 2, last_at: now },
      ]);
      expect(await agent.pendingDebits()).toBe(0);
      expect((await agent.usage(new Date(now).toISOString().slice(0, 7))).reduce((n, r) => n + r.count, 0)).toBe(118);
      // 118 used: 2 free calls left, then credits; leases are no longer offered this close to the quota
      for (let i = 0; i < 2; i++)
        expect(await agent.admit(dev.data.id, "key_b", "/wilayah/provinsi", now)).toEqual({ ok: true, charged: false, day: expect.any(String) });
      expect(await agent.admit(dev.data.id, "key_b", "/wilayah/provinsi", now)).toMatchObject({ ok: true, charged: true });
      expect(await agent.pendingDebits()).toBe(1);
    });
  });

  it("a batch (several calls in one request) is admitted whole or refused whole, its part beyond the quota paid in credits, and given back whole", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('batch10', 'Batch test', 0, 10, 30, '[]', 52, 0)",
    ).run();
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "batch10");
    await env.DB.prepare("INSERT INTO credit_ledger (user_id, amount, reason, ref, created_at) VALUES (?, 7, 'test', ?, ?)")
      .bind(dev.data.id, `test:${dev.data.id}`, Date.now())
      .run();
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    const now = Date.now();
    const month = new Date(now).toISOString().slice(0, 7);
    const used = async (agent: AccountAgent) => (await agent.usage(month)).reduce((n, r) => n + r.count, 0);
    await runInDurableObject(stub, async (agent: AccountAgent) => {
      // 8 calls of a quota of 10: free, counted as 8, no lease for a batch
      expect(await agent.admit(dev.data.id, "key_a", "/wilayah/convert", now, 8)).toEqual({ ok: true, charged: false, day: expect.any(String) });
      expect(await used(agent)).toBe(8);
      // 2 left + 7 credits = 9: a batch of 10 is refused whole, nothing counted or spent
      expect(await agent.admit(dev.data.id, "key_a", "/wilayah/convert", now, 10)).toEqual({ ok: false });
      expect(await used(agent)).toBe(8);
      expect(await agent.pendingDebits()).toBe(0);
      // a batch of 9: 2 free + 7 credits
      const nine = await agent.admit(dev.data.id, "key_a", "/wilayah/convert", now, 9);
      expect(nine).toMatchObject({ ok: true, charged: true, credits: 7 });
      expect(await used(agent)).toBe(17);
      expect(await agent.pendingDebits()).toBe(7);
      // it failed: every call and credit comes back
      if (nine.ok) await agent.release("key_a", "/wilayah/convert", nine.day, nine.charged, 9, nine.credits);
      expect(await used(agent)).toBe(8);
      expect(await agent.pendingDebits()).toBe(0);
      // nothing is left over: one more single call is free, the 11th needs a credit
      expect(await agent.admit(dev.data.id, "key_b", "/wilayah/provinsi", now)).toMatchObject({ ok: true, charged: false });
    });
  });

  it("a lease whose isolate never settles ends by time, uncounted, and its reservation is freed", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('lease120', 'Lease test', 0, 120, 30, '[]', 51, 0)",
    ).run();
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "lease120");
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    const now = Date.now();
    await runInDurableObject(stub, async (agent: AccountAgent) => {
      const first = await agent.admit(dev.data.id, "key_a", "/wilayah/provinsi", now);
      expect(first).toMatchObject({ ok: true, lease: { calls: 5 } });
      for (let used = 1; used < 115; used++) {
        const a = await agent.admit(dev.data.id, "key_b", "/wilayah/provinsi", now);
        if (a.ok && a.lease) await agent.settle(dev.data.id, a.lease.id, []);
      }
      // no credits: with the 5 reserved the quota is taken
      expect(await agent.admit(dev.data.id, "key_b", "/wilayah/provinsi", now)).toEqual({ ok: false });
      // a minute later the unsettled lease is over: its 5 calls are free again
      expect(await agent.admit(dev.data.id, "key_b", "/wilayah/provinsi", now + 60_000)).toMatchObject({ ok: true, charged: false });
    });
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
    await runInDurableObject(stub, async (agent: AccountAgent) => {
      for (const k of made) expect(await agent.admit(dev.data.id, k.id, "/wilayah/provinsi/:id", now)).toMatchObject({ ok: true });
    });
    const u = await usageOf(dev.token);
    expect(u.total).toBe(105);
    expect(u.by_key).toHaveLength(105);
    expect(u.by_key).toEqual(expect.arrayContaining(made.map((k) => ({ key_id: k.id, name: k.name, prefix: k.prefix, count: 1 }))));
  }); // 315 requests (create, call, revoke per key): about 20 s on a quiet machine
});
