import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { call, createKey, expectError, json, login, makeAdmin, routesUnder, verifiedDeveloper, waitForTotal } from "../helpers";

describe("admin", () => {
  it("every admin route the app registers refuses a non-admin (403 FORBIDDEN) and a caller without a token (401); unknown admin paths are 404", async () => {
    const dev = await verifiedDeveloper();
    const routes = routesUnder(app, "/admin/");
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const { method, path } of routes) {
      const url = path.replaceAll(/:[a-z_]+/g, dev.data.id);
      const body = method === "GET" ? undefined : {};
      await expectError(await call(url, { method, token: dev.token, json: body }), 403, "FORBIDDEN");
      await expectError(await call(url, { method, json: body }), 401, "MISSING_TOKEN");
    }
    await expectError(await call("/admin/nothing-here", { token: dev.token }), 404, "NOT_FOUND");
  });

  it("lists and searches users, paged", async () => {
    const admin = await makeAdmin();
    const dev = await verifiedDeveloper();
    const page = await json(await call("/admin/users?per_page=2", { token: admin.token }));
    expect(page.data).toHaveLength(2);
    expect(page.meta).toMatchObject({ page: 1, per_page: 2 });
    expect(page.meta.total).toBeGreaterThanOrEqual(2);
    const found = await json(await call(`/admin/users?q=${encodeURIComponent(dev.data.email.toUpperCase())}`, { token: admin.token }));
    expect(found.data.map((u: { id: string }) => u.id)).toEqual([dev.data.id]);
    expect((await json(await call("/admin/users?q=%25", { token: admin.token }))).data).toEqual([]);
    await expectError(await call("/admin/users?per_page=0", { token: admin.token }), 400, "INVALID_QUERY");
  });

  it("views one user with keys and this month's usage", async () => {
    const admin = await makeAdmin();
    const dev = await verifiedDeveloper();
    const k = await createKey(dev.token, "shop");
    await call("/api/v1/wilayah/provinsi", { key: k.key });
    await waitForTotal(dev.token, 1);
    const one = (await json(await call(`/admin/users/${dev.data.id}`, { token: admin.token }))).data;
    expect(one).toMatchObject({ id: dev.data.id, email: dev.data.email, is_admin: false, status: "active", email_verified: true });
    expect(one.keys.map((x: { name: string }) => x.name)).toEqual(["shop"]);
    expect(JSON.stringify(one)).not.toContain(k.key);
    expect(one.usage.total).toBe(1);
    await expectError(await call("/admin/users/user_nope", { token: admin.token }), 404, "NOT_FOUND");
  });

  it("suspension stops keys at once (even cached), login and sessions; reinstating restores them", async () => {
    const admin = await makeAdmin();
    const dev = await verifiedDeveloper();
    const k = await createKey(dev.token);
    expect((await call("/api/v1/wilayah/provinsi", { key: k.key })).status).toBe(200); // cached lookup now
    const res = await call(`/admin/users/${dev.data.id}`, { method: "PATCH", token: admin.token, json: { status: "suspended" } });
    expect((await json(res)).data.status).toBe("suspended");
    await expectError(await call("/api/v1/wilayah/provinsi", { key: k.key }), 403, "ACCOUNT_SUSPENDED");
    await expectError(await login(dev.data.email, "correct horse"), 403, "ACCOUNT_SUSPENDED");
    await expectError(await call("/auth/me", { token: dev.token }), 403, "ACCOUNT_SUSPENDED");
    await call(`/admin/users/${dev.data.id}`, { method: "PATCH", token: admin.token, json: { status: "active" } });
    expect((await call("/api/v1/wilayah/provinsi", { key: k.key })).status).toBe(200);
  });

  it("grants and takes admin rights (effective at once); validates the patch", async () => {
    const admin = await makeAdmin();
    const dev = await verifiedDeveloper();
    await call(`/admin/users/${dev.data.id}`, { method: "PATCH", token: admin.token, json: { is_admin: true } });
    expect((await call("/admin/stats", { token: dev.token })).status).toBe(200);
    await call(`/admin/users/${dev.data.id}`, { method: "PATCH", token: admin.token, json: { is_admin: false } });
    // Losing admin rights ends the user's sessions (issue 22); a new one has no admin rights.
    await expectError(await call("/admin/stats", { token: dev.token }), 401, "INVALID_TOKEN");
    const again = (await json(await login(dev.data.email, "correct horse"))).token;
    await expectError(await call("/admin/stats", { token: again }), 403, "FORBIDDEN");
    for (const body of [{}, { status: "banned" }, { is_admin: "yes" }, { role: "admin" }]) {
      await expectError(await call(`/admin/users/${dev.data.id}`, { method: "PATCH", token: admin.token, json: body }), 400, "VALIDATION_ERROR");
    }
  });

  /** `fn` run while D1 refuses every audit event about `subjectId` (a trigger), so the change it records must fail with it. */
  const auditRefused = async <T>(subjectId: string, fn: () => Promise<T>): Promise<T> => {
    await env.DB.prepare(
      `CREATE TRIGGER "no_audit_${subjectId}" BEFORE INSERT ON audit_events WHEN NEW.subject_id = '${subjectId}' BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
    ).run();
    try {
      return await fn();
    } finally {
      await env.DB.prepare(`DROP TRIGGER "no_audit_${subjectId}"`).run();
    }
  };
  const countOf = async (sql: string, userId: string) => (await env.DB.prepare(sql).bind(userId).first<{ n: number }>())!.n;

  it("a subscription grant and its audit event commit together: when the event cannot be written, no subscription either", async () => {
    const admin = await makeAdmin();
    const dev = await verifiedDeveloper();
    const grant = () => call(`/admin/users/${dev.data.id}/subscription`, { method: "POST", token: admin.token, json: { plan_id: "pro", months: 1 } });
    const count = (sql: string) => countOf(sql, dev.data.id);
    expect((await auditRefused(dev.data.id, grant)).status).toBe(500);
    expect(await count("SELECT count(*) AS n FROM subscriptions WHERE user_id = ?")).toBe(0);
    expect((await json(await call("/auth/me", { token: dev.token }))).data.plan).toBe("free");
    expect((await grant()).status).toBe(201);
    expect(await count("SELECT count(*) AS n FROM subscriptions WHERE user_id = ?")).toBe(1);
    expect(await count("SELECT count(*) AS n FROM audit_events WHERE event = 'admin_subscription_granted' AND subject_id = ?")).toBe(1);
  });

  it("a credit grant and its audit event commit together: when the event cannot be written, no ledger entry either", async () => {
    const admin = await makeAdmin();
    const dev = await verifiedDeveloper();
    const grant = () => call(`/admin/users/${dev.data.id}/credits`, { method: "POST", token: admin.token, json: { amount: 9, reason: "goodwill" } });
    const count = (sql: string) => countOf(sql, dev.data.id);
    expect((await auditRefused(dev.data.id, grant)).status).toBe(500);
    expect(await count("SELECT count(*) AS n FROM credit_ledger WHERE user_id = ?")).toBe(0);
    const ok = await grant();
    expect(ok.status).toBe(201);
    expect((await json(ok)).data.balance).toBe(9);
    expect(await count("SELECT count(*) AS n FROM credit_ledger WHERE user_id = ?")).toBe(1);
    expect(await count("SELECT count(*) AS n FROM audit_events WHERE event = 'admin_credits_changed' AND subject_id = ?")).toBe(1);
  });

  it("stats: users, active keys, calls this month (flushed)", async () => {
    const admin = await makeAdmin();
    const s = (await json(await call("/admin/stats", { token: admin.token }))).data;
    expect(s).toMatchObject({
      users: expect.any(Number),
      active_keys: expect.any(Number),
      calls_this_month: expect.any(Number),
      month: new Date().toISOString().slice(0, 7),
    });
    const n = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    expect(s.users).toBe(n!.n);
  });
});
