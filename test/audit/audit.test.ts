/** Issue 22: the security audit trail (D1), GET /admin/audit, and the last admin's guard. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createKey, expectError, json, login, makeAdmin, register, uniqueEmail, verifiedDeveloper } from "../helpers";

type AuditEvent = {
  id: number;
  at: string;
  event: string;
  actor_id: string | null;
  subject_id: string | null;
  ip: string | null;
  request_id: string | null;
  detail: Record<string, unknown>;
};

async function eventsOf(adminToken: string, query: string): Promise<AuditEvent[]> {
  const res = await call(`/admin/audit?${query}`, { token: adminToken });
  expect(res.status).toBe(200);
  return (await json(res)).data;
}

describe("audit trail", () => {
  it("records logins, logout, password change, keys and admin changes with time, actor, subject, IP and request id; never a secret", async () => {
    const admin = await makeAdmin();
    const dev = await verifiedDeveloper();
    const ok = await login(dev.data.email, "correct horse", "203.0.113.77");
    const okRequestId = ok.headers.get("x-request-id");
    const session = (await json(ok)).token;
    await login(dev.data.email, "wrong horse", "203.0.113.78");
    const extra = (await json(await login(dev.data.email, "correct horse"))).token;
    await call("/auth/logout", { method: "POST", token: extra });
    const key = await createKey(session);
    await call(`/user/keys/${key.id}`, { method: "DELETE", token: session });
    await call("/auth/change-password", { method: "POST", token: session, json: { current_password: "correct horse", new_password: "a new password" } });
    await call(`/admin/users/${dev.data.id}/credits`, { method: "POST", token: admin.token, json: { amount: 7, reason: "goodwill" } });
    await call(`/admin/users/${dev.data.id}/subscription`, { method: "POST", token: admin.token, json: { plan_id: "starter", months: 1 } });
    await call(`/admin/users/${dev.data.id}`, { method: "PATCH", token: admin.token, json: { status: "suspended" } });

    const events = await eventsOf(admin.token, `user_id=${dev.data.id}&per_page=100`);
    const kinds = events.map((e) => e.event);
    for (const k of [
      "login_succeeded",
      "login_failed",
      "logout",
      "key_created",
      "key_revoked",
      "password_changed",
      "admin_credits_changed",
      "admin_subscription_granted",
      "admin_user_changed",
    ]) {
      expect(kinds, k).toContain(k);
    }
    const loginEvent = events.find((e) => e.event === "login_succeeded" && e.ip === "203.0.113.77")!;
    expect(loginEvent).toMatchObject({ actor_id: dev.data.id, subject_id: dev.data.id, request_id: okRequestId });
    expect(Date.parse(loginEvent.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(events.find((e) => e.event === "login_failed")).toMatchObject({ subject_id: dev.data.id, ip: "203.0.113.78" });
    const change = events.find((e) => e.event === "admin_user_changed")!;
    expect(change).toMatchObject({ actor_id: admin.data.id, subject_id: dev.data.id, detail: { status: "suspended" } });
    expect(events.find((e) => e.event === "admin_credits_changed")).toMatchObject({ actor_id: admin.data.id, detail: { amount: 7 } });
    const all = JSON.stringify(events);
    for (const secret of ["correct horse", "wrong horse", "a new password", key.key, session]) expect(all).not.toContain(secret);
  });

  it("a client's own x-request-id is not adopted: the answer and the audit row carry an id this API made", async () => {
    const admin = await makeAdmin();
    const dev = await verifiedDeveloper();
    const forged = "forged-request-id-0001";
    const ok = await call("/auth/login", { method: "POST", json: { email: dev.data.email, password: "correct horse" }, headers: { "x-request-id": forged } });
    expect(ok.status).toBe(200);
    const issued = ok.headers.get("x-request-id")!;
    expect(issued).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const bad = await call("/auth/login", { method: "POST", json: { email: dev.data.email, password: "wrong horse" }, headers: { "x-request-id": forged } });
    await expectError(bad, 401, "INVALID_CREDENTIALS"); // its body's request_id is the header's
    expect(bad.headers.get("x-request-id")).not.toBe(forged);
    const events = await eventsOf(admin.token, `user_id=${dev.data.id}&per_page=100`);
    expect(events.some((e) => e.request_id === forged)).toBe(false);
    expect(events.find((e) => e.event === "login_succeeded")?.request_id).toBe(issued);
  });

  it("GET /admin/audit is paged and filters by user and event; a failed login of an unknown email is recorded too", async () => {
    const admin = await makeAdmin();
    const r = await register();
    for (let i = 0; i < 3; i++) await login(r.data.email, "wrong horse");
    const unknown = uniqueEmail();
    await login(unknown, "wrong horse");
    const page = await json(await call(`/admin/audit?user_id=${r.data.id}&event=login_failed&per_page=2`, { token: admin.token }));
    expect(page.meta).toMatchObject({ total: 3, page: 1, per_page: 2, total_pages: 2 });
    expect(page.data.every((e: AuditEvent) => e.event === "login_failed" && e.subject_id === r.data.id)).toBe(true);
    expect(page.data[0].id).toBeGreaterThan(page.data[1].id); // newest first
    const anon = await eventsOf(admin.token, "event=login_failed&per_page=100");
    expect(anon.some((e) => e.subject_id === null && e.detail.email === unknown)).toBe(true);
    await expectError(await call("/admin/audit?event=nope", { token: admin.token }), 400, "INVALID_QUERY");
    await expectError(await call("/admin/audit", { token: r.token }), 403, "FORBIDDEN");
  });

  it("the last active admin cannot demote or suspend themselves: 409 LAST_ADMIN", async () => {
    const admin = await makeAdmin();
    await env.DB.prepare("UPDATE users SET is_admin = 0 WHERE is_admin = 1 AND id <> ?").bind(admin.data.id).run();
    await expectError(await call(`/admin/users/${admin.data.id}`, { method: "PATCH", token: admin.token, json: { is_admin: false } }), 409, "LAST_ADMIN");
    await expectError(await call(`/admin/users/${admin.data.id}`, { method: "PATCH", token: admin.token, json: { status: "suspended" } }), 409, "LAST_ADMIN");
    const other = await verifiedDeveloper();
    await call(`/admin/users/${other.data.id}`, { method: "PATCH", token: admin.token, json: { is_admin: true } });
    const res = await call(`/admin/users/${admin.data.id}`, { method: "PATCH", token: admin.token, json: { is_admin: false } });
    expect(res.status).toBe(200);
  });
});
