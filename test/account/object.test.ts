/**
 * The account object (src/account/object.ts) asked directly, as an isolate would: leases and their
 * reservations, batches, give-backs, leases that end by time. HTTP-level admission is in
 * admission.test.ts, usage reads in usage.test.ts, the object failing in test/faults/account-object.test.ts.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AccountObject } from "../../src/account/object";
import { setPlan, verifiedDeveloper } from "../helpers";

describe("the account object", () => {
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
    await runInDurableObject(stub, async (object: AccountObject) => {
      // isolate A: its call brings back a lease of (120 - 1) / 20 = 5 calls
      const first = await object.admit({ keyId: "key_a", endpoint: "/wilayah/provinsi", now });
      expect(first).toMatchObject({ ok: true, charged: false, lease: { calls: 5 } });
      // isolate B asks call by call (leases it is offered are settled unused at once)
      for (let used = 1; used < 115; used++) {
        const a = await object.admit({ keyId: "key_b", endpoint: "/wilayah/provinsi", now });
        expect(a).toMatchObject({ ok: true, charged: false });
        if (a.ok && a.lease) await object.settle({ leaseId: a.lease.id, counts: [] });
      }
      // 115 counted + 5 reserved = the quota: the next call spends a credit
      expect(await object.admit({ keyId: "key_b", endpoint: "/wilayah/provinsi", now })).toMatchObject({ ok: true, charged: true });
      expect(await object.pendingDebits()).toBe(1);
      // A served 2 of its 5: the 3 unused cover that call, so the credit comes back
      await object.settle({
        leaseId: first.ok ? first.lease!.id : "",
        counts: [{ key_id: "key_a", endpoint: "/wilayah/provinsi", day: new Date(now).toISOString().slice(0, 10), count: 2, last_at: now }],
      });
      expect(await object.pendingDebits()).toBe(0);
      expect((await object.usage(new Date(now).toISOString().slice(0, 7))).reduce((n, r) => n + r.count, 0)).toBe(118);
      // 118 used: 2 free calls left, then credits; leases are no longer offered this close to the quota
      for (let i = 0; i < 2; i++)
        expect(await object.admit({ keyId: "key_b", endpoint: "/wilayah/provinsi", now })).toEqual({ ok: true, charged: false, day: expect.any(String) });
      expect(await object.admit({ keyId: "key_b", endpoint: "/wilayah/provinsi", now })).toMatchObject({ ok: true, charged: true });
      expect(await object.pendingDebits()).toBe(1);
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
    const used = async (object: AccountObject) => (await object.usage(month)).reduce((n, r) => n + r.count, 0);
    await runInDurableObject(stub, async (object: AccountObject) => {
      // 8 calls of a quota of 10: free, counted as 8, no lease for a batch
      expect(await object.admit({ keyId: "key_a", endpoint: "/wilayah/convert", now, calls: 8 })).toEqual({
        ok: true,
        charged: false,
        day: expect.any(String),
      });
      expect(await used(object)).toBe(8);
      // 2 left + 7 credits = 9: a batch of 10 is refused whole, nothing counted or spent
      expect(await object.admit({ keyId: "key_a", endpoint: "/wilayah/convert", now, calls: 10 })).toEqual({ ok: false });
      expect(await used(object)).toBe(8);
      expect(await object.pendingDebits()).toBe(0);
      // a batch of 9: 2 free + 7 credits
      const nine = await object.admit({ keyId: "key_a", endpoint: "/wilayah/convert", now, calls: 9, ticket: `nine:${dev.data.id}` });
      expect(nine).toMatchObject({ ok: true, charged: true, credits: 7 });
      expect(await used(object)).toBe(17);
      expect(await object.pendingDebits()).toBe(7);
      // it failed: every call and credit comes back
      await object.giveBack({ ticket: `nine:${dev.data.id}` });
      expect(await used(object)).toBe(8);
      expect(await object.pendingDebits()).toBe(0);
      // given back once, however often asked
      await object.giveBack({ ticket: `nine:${dev.data.id}` });
      expect(await used(object)).toBe(8);
      // nothing is left over: one more single call is free, the 11th needs a credit
      expect(await object.admit({ keyId: "key_b", endpoint: "/wilayah/provinsi", now })).toMatchObject({ ok: true, charged: false });
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
    await runInDurableObject(stub, async (object: AccountObject) => {
      const first = await object.admit({ keyId: "key_a", endpoint: "/wilayah/provinsi", now });
      expect(first).toMatchObject({ ok: true, lease: { calls: 5 } });
      for (let used = 1; used < 115; used++) {
        const a = await object.admit({ keyId: "key_b", endpoint: "/wilayah/provinsi", now });
        if (a.ok && a.lease) await object.settle({ leaseId: a.lease.id, counts: [] });
      }
      // no credits: with the 5 reserved the quota is taken
      expect(await object.admit({ keyId: "key_b", endpoint: "/wilayah/provinsi", now })).toEqual({ ok: false });
      // a minute later the unsettled lease is over: its 5 calls are free again
      expect(await object.admit({ keyId: "key_b", endpoint: "/wilayah/provinsi", now: now + 60_000 })).toMatchObject({ ok: true, charged: false });
    });
  });

  it("the flush alarm writes the counts to D1: the object knows its account by its name, nothing stored beside it", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    await runInDurableObject(stub, async (object: AccountObject) => {
      expect(await object.admit({ keyId: "key_alarm", endpoint: "/wilayah/provinsi" })).toMatchObject({ ok: true });
      // the flush is due in a minute: bring it forward, then let the alarm run it
      await object.schedule(0, "flush");
    });
    // The alarm is due at once: it may fire by itself before this asks for it (then this runs nothing).
    await runDurableObjectAlarm(stub);
    const flushed = async () => (await env.DB.prepare("SELECT sum(count) AS n FROM usage_daily WHERE user_id = ?").bind(dev.data.id).first<{ n: number }>())?.n;
    await expect.poll(flushed, { timeout: 5_000 }).toBe(1);
  });
});
