/**
 * Alerts and the spend limit (issue 54) through HTTP: an alert at 80% and at 100% of the quota,
 * each once (the console mailer's email in the account's language, a signed usage.threshold
 * webhook), the low-credits alert, and the spend limit's own 402.
 */
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, createKey, expectError, json, printed, setPlan, verifiedDeveloper } from "../helpers";
import { createHook, type Received, receiver, waitFor } from "../webhooks/helpers";

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
  vi.restoreAllMocks();
});

/** A receiver on its own host (tests in parallel never see each other's deliveries). */
function ownReceiver() {
  const host = `alerts-${crypto.randomUUID().slice(0, 8)}.receiver.test`;
  const r = receiver(host);
  restore = r.restore;
  return { ...r, url: `https://${host}/hook` };
}

async function planOf(id: string, quota: number) {
  await env.DB.prepare(
    "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES (?, ?, 0, ?, 600, '[]', 70, 0)",
  )
    .bind(id, id, quota)
    .run();
}

async function grant(userId: string, credits: number) {
  await env.DB.prepare("INSERT INTO credit_ledger (user_id, amount, reason, ref, created_at) VALUES (?, ?, 'test', ?, ?)")
    .bind(userId, credits, `test:${crypto.randomUUID()}`, Date.now())
    .run();
}

const alertsOf = async (token: string) => {
  const res = await call("/user/alerts", { token });
  expect(res.status).toBe(200);
  return (await json(res)).data;
};

const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers) as { type: string; data: Record<string, unknown> };

describe("alerts", () => {
  it("at 80% and at 100% of the quota: once each, by email in the account's language and as a signed usage.threshold webhook", async () => {
    await planOf("alert10", 10);
    const r = ownReceiver();
    const dev = await verifiedDeveloper();
    // after verifiedDeveloper: it spies on console.log too, and restores it
    const mail = vi.spyOn(console, "log");
    await setPlan(dev.data.id, "alert10");
    const hook = await createHook(dev.token, { url: r.url, events: ["usage.threshold"] });
    const key = await createKey(dev.token);

    for (let i = 0; i < 7; i++) expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200);
    expect(await printed(mail, /kuota bulan ini/, 1)).toEqual([]); // 70%: nothing yet
    expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200); // 8 of 10
    expect(await printed(mail, /80% kuota bulan ini terpakai/, 1)).toHaveLength(1);
    expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200); // 9: no new alert
    for (let i = 0; i < 1; i++) expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200); // 10 of 10
    expect(await printed(mail, /kuota bulan ini sudah habis/, 1)).toHaveLength(1);
    // past the quota without credits: 402, and no alert sent again
    await expectError(await call("/api/v1/wilayah/provinsi", { key: key.key }), 402, "QUOTA_EXCEEDED");
    await new Promise((res) => setTimeout(res, 500));
    const text = mail.mock.calls.flat().map(String).join("\n");
    expect(text.match(/\[console mailer\] to [^:]+: Wilayah API: 80% kuota bulan ini terpakai/g)).toHaveLength(1);
    expect(text.match(/\[console mailer\] to [^:]+: Wilayah API: kuota bulan ini sudah habis/g)).toHaveLength(1);
    expect(text).toContain(`[console mailer] to ${dev.data.email}`);
    expect(text).toContain("Akun Anda sudah memakai 8 dari 10 panggilan");

    await waitFor(() => r.received.length >= 2 || undefined);
    const events = r.received.map((x) => verify(hook.secret, x));
    expect(events.map((e) => [e.type, e.data.kind, e.data.threshold])).toEqual([
      ["usage.threshold", "quota", 80],
      ["usage.threshold", "quota", 100],
    ]);
    expect(events[0].data).toMatchObject({ month: new Date().toISOString().slice(0, 7), used: 8, quota: 10, credits_left: null, spent: null });
    expect(() => new Webhook(`whsec_${btoa("x".repeat(24))}`).verify(r.received[0].body, r.received[0].headers)).toThrow();

    const shown = await alertsOf(dev.token);
    expect(shown).toMatchObject({ used: 10, quota: 10, spent: 0, settings: { spend_limit: null, low_credits_below: null, language: "id" } });
    expect(shown.alerts.map((a: any) => [a.kind, a.threshold, a.emailed])).toEqual([
      ["quota", 100, true],
      ["quota", 80, true],
    ]);
  });

  it("credits below the account's level: once, in English when the account says so", async () => {
    await planOf("alert2", 2);
    const dev = await verifiedDeveloper();
    // after verifiedDeveloper: it spies on console.log too, and restores it
    const mail = vi.spyOn(console, "log");
    await setPlan(dev.data.id, "alert2");
    await grant(dev.data.id, 7);
    const set = await call("/user/alerts", { method: "PUT", token: dev.token, json: { low_credits_below: 5, language: "en" } });
    expect(set.status).toBe(200);
    expect((await json(set)).data.settings).toEqual({ spend_limit: null, low_credits_below: 5, language: "en" });
    const key = await createKey(dev.token);
    // 2 free, then credits: 7 -> 6 -> 5 (not below) -> 4 (below 5: the alert)
    for (let i = 0; i < 4; i++) expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200);
    expect(await printed(mail, /Wilayah API: fewer than 5 credits left/, 1)).toEqual([]);
    expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200);
    expect(await printed(mail, /Wilayah API: fewer than 5 credits left/, 1)).toHaveLength(1);
    expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200); // 3 left: sent already
    await new Promise((res) => setTimeout(res, 500));
    const text = mail.mock.calls.flat().map(String).join("\n");
    expect(text.match(/fewer than 5 credits left/g)).toHaveLength(1);
    expect(text).toContain("Your account has 4 credits left");
    // the quota alerts came in English too
    expect(text).toContain("Wilayah API: this month's quota is used up");
    const alerts = (await alertsOf(dev.token)).alerts;
    expect(alerts.find((a: any) => a.kind === "credits")).toMatchObject({ threshold: 5, credits_left: 4, emailed: true });
  });

  it("settings are checked: 400 VALIDATION_ERROR for nothing, a negative limit, an unknown language", async () => {
    const dev = await verifiedDeveloper();
    for (const body of [{}, { spend_limit: -1 }, { low_credits_below: 0 }, { language: "fr" }, { spend_limit: 1.5 }, { other: 1 }]) {
      await expectError(await call("/user/alerts", { method: "PUT", token: dev.token, json: body }), 400, "VALIDATION_ERROR");
    }
    await expectError(await call("/user/alerts"), 401, "MISSING_TOKEN");
  });
});

describe("the spend limit", () => {
  it("past the month's limit on credits beyond the quota: 402 SPEND_LIMIT_REACHED (not QUOTA_EXCEEDED), its alert, and calls again once raised", async () => {
    await planOf("spend2", 2);
    const dev = await verifiedDeveloper();
    // after verifiedDeveloper: it spies on console.log too, and restores it
    const mail = vi.spyOn(console, "log");
    await setPlan(dev.data.id, "spend2");
    await grant(dev.data.id, 100);
    expect((await call("/user/alerts", { method: "PUT", token: dev.token, json: { spend_limit: 3 } })).status).toBe(200);
    const key = await createKey(dev.token);
    for (let i = 0; i < 5; i++) expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200); // 2 free + 3 credits
    const refused = await call("/api/v1/wilayah/provinsi", { key: key.key });
    const err = await expectError(refused, 402, "SPEND_LIMIT_REACHED");
    expect(err.message).toMatch(/spend limit of 3 credits/);
    // a batch and a bulk job are refused the same way, whole
    await expectError(await call("/api/v1/wilayah/convert", { method: "POST", key: key.key, json: { codes: ["32.73", "32.74"] } }), 402, "SPEND_LIMIT_REACHED");
    const job = await call("/api/v1/jobs?kind=convert", {
      method: "POST",
      key: key.key,
      body: "code\n32.73\n32.74\n",
      headers: { "content-type": "text/csv" },
    });
    await expectError(job, 402, "SPEND_LIMIT_REACHED");
    expect(await printed(mail, /Wilayah API: batas belanja bulanan tercapai/, 1)).toHaveLength(1);
    expect(await alertsOf(dev.token)).toMatchObject({ spent: 3, settings: { spend_limit: 3 } });
    const balance = (await json(await call("/billing/credits", { token: dev.token }))).data.balance;
    expect(balance).toBe(97); // credits were left: it is the limit that refused

    // in the request log with its code
    const line = await json(await call(`/user/requests?request_id=${refused.headers.get("x-request-id")}`, { token: dev.token }));
    expect(line.data).toEqual([expect.objectContaining({ status: 402, error_code: "SPEND_LIMIT_REACHED" })]);

    // raised: calls again; removed: no limit at all
    expect((await call("/user/alerts", { method: "PUT", token: dev.token, json: { spend_limit: 4 } })).status).toBe(200);
    expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200);
    await expectError(await call("/api/v1/wilayah/provinsi", { key: key.key }), 402, "SPEND_LIMIT_REACHED");
    expect((await call("/user/alerts", { method: "PUT", token: dev.token, json: { spend_limit: null } })).status).toBe(200);
    expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200);
    const text = mail.mock.calls.flat().map(String).join("\n");
    expect(text.match(/batas belanja bulanan tercapai/g)?.length).toBeGreaterThanOrEqual(1);
  });

  it("a limit of 0 spends no credit at all: the quota is a hard cap", async () => {
    await planOf("spend1", 1);
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "spend1");
    await grant(dev.data.id, 50);
    expect((await call("/user/alerts", { method: "PUT", token: dev.token, json: { spend_limit: 0 } })).status).toBe(200);
    const key = await createKey(dev.token);
    expect((await call("/api/v1/wilayah/provinsi", { key: key.key })).status).toBe(200);
    await expectError(await call("/api/v1/wilayah/provinsi", { key: key.key }), 402, "SPEND_LIMIT_REACHED");
  });
});
