/**
 * Admission through the public surface: the plan's quota, then credits, then 402; the per-minute
 * rate. The account object asked directly is in object.test.ts; the object failing in
 * test/faults/account-object.test.ts.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AccountObject } from "../../src/account/object";
import { call, createKey, expectError, json, setPlan, verifiedDeveloper } from "../helpers";

const balanceOf = async (token: string) => (await json(await call("/billing/credits", { token }))).data.balance;

describe("quota, credits and rate", () => {
  async function tinyPlanDeveloper() {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('tiny', 'Tiny', 0, 3, 30, '[]', 50, 0)",
    ).run();
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "tiny");
    return { dev, key: (await createKey(dev.token)).key };
  }

  it("within the quota calls are free; beyond it each spends 1 credit; then 402 QUOTA_EXCEEDED", async () => {
    const { dev, key } = await tinyPlanDeveloper();
    const admin = await verifiedDeveloper();
    await setPlan(admin.data.id, "free");
    await env.DB.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").bind(admin.data.id).run();
    const get = () => call("/api/v1/wilayah/provinsi", { key });
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
    await expectError(await get(), 402, "QUOTA_EXCEEDED");

    const grant = await call(`/admin/users/${dev.data.id}/credits`, { method: "POST", token: admin.token, json: { amount: 2, reason: "goodwill" } });
    expect(grant.status).toBe(201);
    // a failing call beyond the quota spends nothing
    await expectError(await call("/api/v1/wilayah/provinsi/99", { key }), 404, "NOT_FOUND");
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    await expectError(await get(), 402, "QUOTA_EXCEEDED");
    expect(await balanceOf(dev.token)).toBe(0); // exact before the debit reaches the ledger

    // the flush writes the 2 debits as one ledger entry
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    await runInDurableObject(stub, (object: AccountObject) => object.flush());
    const ledger = (await json(await call("/billing/credits", { token: dev.token }))).data;
    expect(ledger.balance).toBe(0);
    expect(ledger.ledger.map((e: { amount: number }) => e.amount)).toEqual([-2, 2]);
    expect((await json(await call("/user/usage", { token: dev.token }))).data.total).toBe(5);
  });

  it("above the plan's per-minute rate: 429 RATE_LIMITED with Retry-After", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "free"); // 30 per minute
    const key = (await createKey(dev.token)).key;
    // Fixed one-minute windows: 61 calls cross 30 even if a window ends mid-test.
    const answers: Response[] = [];
    for (let i = 0; i < 61; i++) answers.push(await call("/api/v1/wilayah/provinsi/32", { key }));
    const limited = answers.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    expect(limited!.headers.get("retry-after")).toBe("60");
    await expectError(limited!, 429, "RATE_LIMITED");
  });
});
