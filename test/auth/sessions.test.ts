/**
 * Issue 22: sessions that can be ended, accounts that can be recovered, login back-off, the exact
 * resend limit, password hygiene (rehash, breached list), the challenge's hostname, production mail.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, createKey, expectError, json, login, makeAdmin, printed, register, uniqueEmail, verifiedDeveloper, verifyLinkFrom } from "../helpers";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  (env as any).ENVIRONMENT = "development";
  (env as any).TURNSTILE_SITE_KEY = "";
  (env as any).BREACHED_PASSWORDS_URL = "";
  delete (env as any).TURNSTILE_SECRET;
  delete (env as any).RESEND_API_KEY;
  (env as any).CHALLENGE_HOSTNAMES = "";
});

const me = (token: string) => call("/auth/me", { token });
const post = (path: string, token?: string, body?: unknown, ip?: string) => call(path, { method: "POST", token, json: body, ip });

/** The last password-reset link the console mailer printed (it is sent after the answer). */
async function resetLinkFrom(log: { mock: { calls: unknown[][] } }): Promise<URL> {
  const links = await printed(log, /https?:\/\/\S+\/reset\?token=\S+/);
  if (!links.length) throw new Error("no reset link was printed");
  return new URL(links.at(-1)!);
}

async function resetToken(email: string): Promise<string> {
  const log = vi.spyOn(console, "log");
  const res = await post("/auth/forgot-password", undefined, { email });
  expect(res.status).toBe(200);
  const link = await resetLinkFrom(log);
  log.mockRestore();
  return link.searchParams.get("token")!;
}

describe("ending sessions", () => {
  it("POST /auth/logout ends this token only", async () => {
    const r = await register();
    const other = await json(await login(r.data.email, "correct horse"));
    const out = await post("/auth/logout", r.token);
    expect(out.status).toBe(200);
    expect((await json(out)).data).toEqual({ logged_out: true });
    await expectError(await me(r.token), 401, "INVALID_TOKEN");
    expect((await me(other.token)).status).toBe(200);
  });

  it("POST /auth/logout-all ends every session of the user, tokens issued afterwards work", async () => {
    const r = await register();
    const second = (await json(await login(r.data.email, "correct horse"))).token;
    expect((await post("/auth/logout-all", second)).status).toBe(200);
    await expectError(await me(r.token), 401, "INVALID_TOKEN");
    await expectError(await me(second), 401, "INVALID_TOKEN");
    const fresh = (await json(await login(r.data.email, "correct horse"))).token;
    expect((await me(fresh)).status).toBe(200);
  });

  it("POST /auth/change-password: needs the current password, ends the other sessions, answers a new token", async () => {
    const r = await register();
    const other = (await json(await login(r.data.email, "correct horse"))).token;
    await expectError(
      await post("/auth/change-password", r.token, { current_password: "wrong horse", new_password: "a new password" }),
      401,
      "INVALID_CREDENTIALS",
    );
    await expectError(await post("/auth/change-password", r.token, { current_password: "correct horse", new_password: "short" }), 400, "VALIDATION_ERROR");
    const res = await post("/auth/change-password", r.token, { current_password: "correct horse", new_password: "a new password" });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.id).toBe(r.data.id);
    expect((await me(body.token)).status).toBe(200);
    await expectError(await me(other), 401, "INVALID_TOKEN");
    await expectError(await me(r.token), 401, "INVALID_TOKEN");
    expect((await login(r.data.email, "correct horse")).status).toBe(401);
    expect((await login(r.data.email, "a new password")).status).toBe(200);
  });

  it("suspension and admin demotion end the user's sessions (reinstating does not revive them)", async () => {
    const admin = await makeAdmin();
    const dev = await verifiedDeveloper();
    await call(`/admin/users/${dev.data.id}`, { method: "PATCH", token: admin.token, json: { status: "suspended" } });
    await call(`/admin/users/${dev.data.id}`, { method: "PATCH", token: admin.token, json: { status: "active" } });
    await expectError(await me(dev.token), 401, "INVALID_TOKEN");

    const other = await verifiedDeveloper();
    await call(`/admin/users/${other.data.id}`, { method: "PATCH", token: admin.token, json: { is_admin: true } });
    expect((await me(other.token)).status).toBe(200); // a promotion ends nothing
    await call(`/admin/users/${other.data.id}`, { method: "PATCH", token: admin.token, json: { is_admin: false } });
    await expectError(await me(other.token), 401, "INVALID_TOKEN");
  });
});

describe("recovery", () => {
  it("forgot-password always answers 200 the same way; a known address gets one link per minute", async () => {
    const r = await register();
    const log = vi.spyOn(console, "log");
    const known = await post("/auth/forgot-password", undefined, { email: r.data.email });
    const unknown = await post("/auth/forgot-password", undefined, { email: uniqueEmail() });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await json(known)).toEqual(await json(unknown));
    const again = await Promise.all([1, 2, 3].map(() => post("/auth/forgot-password", undefined, { email: r.data.email })));
    expect(again.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await printed(log, /\/reset\?token=/, 2)).toHaveLength(1);
  });

  it("forgot-password: at most 5 links a day to one address, a minute apart", async () => {
    const r = await register();
    const log = vi.spyOn(console, "log");
    const start = Date.now();
    for (let i = 0; i < 8; i++) {
      vi.useFakeTimers({ now: start + i * 61_000, toFake: ["Date"] });
      expect((await post("/auth/forgot-password", undefined, { email: r.data.email }, `198.18.2.${i + 1}`)).status).toBe(200);
    }
    expect(await printed(log, /\/reset\?token=/, 6)).toHaveLength(5);
    vi.useFakeTimers({ now: start + 25 * 3600_000, toFake: ["Date"] });
    await post("/auth/forgot-password", undefined, { email: r.data.email });
    expect(await printed(log, /\/reset\?token=/, 6)).toHaveLength(6);
  });

  it("forgot-password answers a known email without waiting for its mail (the same time as an unknown one)", async () => {
    const r = await register();
    (env as any).RESEND_API_KEY = "re_test";
    let mailed = 0;
    // The mail provider takes a second to answer.
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      await new Promise((done) => setTimeout(done, 1_000));
      mailed++;
      return Response.json({ id: "m" });
    });
    const t0 = Date.now();
    expect((await post("/auth/forgot-password", undefined, { email: r.data.email })).status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(500);
    expect(mailed).toBe(0);
    for (let i = 0; i < 40 && mailed === 0; i++) await new Promise((done) => setTimeout(done, 50));
    expect(mailed).toBe(1);
  });

  it("forgot-password asks the bot challenge when one is configured", async () => {
    (env as any).TURNSTILE_SITE_KEY = "1x00000000000000000000AA";
    (env as any).TURNSTILE_SECRET = "1x0000000000000000000000000000000AA";
    await expectError(await post("/auth/forgot-password", undefined, { email: uniqueEmail() }), 400, "CHALLENGE_REQUIRED");
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ success: true, action: "challenge-spin-v2", hostname: "api.wilayah.test" }));
    expect((await post("/auth/forgot-password", undefined, { email: uniqueEmail(), challengeToken: "tok" })).status).toBe(200);
  });

  it("reset-password: single use, its own purpose key, 30 minutes; ends every session", async () => {
    const r = await register();
    const token = await resetToken(r.data.email);
    // A reset token is no session token, and a session token is no reset token.
    await expectError(await me(token), 401, "INVALID_TOKEN");
    await expectError(await post("/auth/reset-password", undefined, { token: r.token, password: "brand new pass" }), 400, "INVALID_RESET_TOKEN");
    const res = await post("/auth/reset-password", undefined, { token, password: "brand new pass" });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ password_reset: true, sessions_ended: true });
    await expectError(await me(r.token), 401, "INVALID_TOKEN");
    expect((await login(r.data.email, "brand new pass")).status).toBe(200);
    // used once
    await expectError(await post("/auth/reset-password", undefined, { token, password: "another new pass" }), 400, "INVALID_RESET_TOKEN");

    vi.useFakeTimers({ now: Date.now() - 31 * 60 * 1000, toFake: ["Date"] });
    const old = await resetToken((await register()).data.email);
    vi.useRealTimers();
    await expectError(await post("/auth/reset-password", undefined, { token: old, password: "brand new pass" }), 400, "INVALID_RESET_TOKEN");
  });

  it("a stale unverified account (over 7 days) releases its email: a new registration replaces it", async () => {
    const email = uniqueEmail();
    const old = await register({ email, password: "squatter pass" });
    await env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?")
      .bind(Date.now() - 6 * 86_400_000, old.data.id)
      .run();
    await expectError(await call("/auth/register", { method: "POST", json: { email, password: "owner password", name: "O" } }), 409, "EMAIL_TAKEN");
    await env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?")
      .bind(Date.now() - 8 * 86_400_000, old.data.id)
      .run();
    const fresh = await register({ email, password: "owner password" });
    expect(fresh.data.id).not.toBe(old.data.id);
    await expectError(await me(old.token), 401, "INVALID_TOKEN");
    expect(await env.DB.prepare("SELECT id FROM users WHERE id = ?").bind(old.data.id).first()).toBeNull();
    expect((await login(email, "squatter pass")).status).toBe(401);
    // a verified account never releases its email
    const verified = await verifiedDeveloper();
    await env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?")
      .bind(Date.now() - 30 * 86_400_000, verified.data.id)
      .run();
    await expectError(
      await call("/auth/register", { method: "POST", json: { email: verified.data.email, password: "owner password", name: "O" } }),
      409,
      "EMAIL_TAKEN",
    );
  });
});

describe("pre-registered account taken over by the email's owner", () => {
  it("verify link opened elsewhere, then a password reset: the squatter's sessions and keys end, and the answer says so", async () => {
    const log = vi.spyOn(console, "log");
    const squatter = await register({ password: "squatter pass" });
    const link = verifyLinkFrom(log);
    log.mockRestore();
    // The real owner clicks the link that arrived unasked (no session of this account in that browser).
    await call(link.pathname + link.search, { redirect: "manual" });
    const key = await createKey(squatter.token); // now possible: the account is verified
    expect((await call("/api/v1/wilayah/provinsi/32", { key: key.key })).status).toBe(200);
    const token = await resetToken(squatter.data.email);
    const res = await post("/auth/reset-password", undefined, { token, password: "the owner's pass" });
    expect((await json(res)).data).toMatchObject({ takeover: true, keys_revoked: 1 });
    await expectError(await me(squatter.token), 401, "INVALID_TOKEN");
    await expectError(await call("/api/v1/wilayah/provinsi/32", { key: key.key }), 401, "INVALID_API_KEY");
    expect((await login(squatter.data.email, "squatter pass")).status).toBe(401);
  });

  it("a verify link opened in a browser with this account's portal session proves the owner; another account's session does not", async () => {
    const owner = async (id: string) => (await env.DB.prepare("SELECT owner_proven AS p FROM users WHERE id = ?").bind(id).first<{ p: number }>())!.p;
    const other = await verifiedDeveloper();
    for (const [cookieOf, proven] of [
      [() => other.token, 0],
      [(r: { token: string }) => r.token, 1],
    ] as const) {
      const log = vi.spyOn(console, "log");
      const r = await register();
      const link = verifyLinkFrom(log);
      log.mockRestore();
      const res = await call(link.pathname + link.search, { redirect: "manual", headers: { cookie: `__Host-wl_session=${cookieOf(r)}` } });
      expect(res.headers.get("location")).toMatch(/verified=1$/);
      expect(await owner(r.data.id)).toBe(proven);
    }
  });

  it("a reset of an account whose owner was proven keeps its keys", async () => {
    const dev = await verifiedDeveloper();
    await env.DB.prepare("UPDATE users SET owner_proven = 1 WHERE id = ?").bind(dev.data.id).run();
    const key = await createKey(dev.token);
    const token = await resetToken(dev.data.email);
    const res = await post("/auth/reset-password", undefined, { token, password: "brand new pass" });
    expect((await json(res)).data).toMatchObject({ takeover: false, keys_revoked: 0 });
    expect((await call("/api/v1/wilayah/provinsi/32", { key: key.key })).status).toBe(200);
  });
});

describe("failed logins per account", () => {
  it("5 failures lock the email for a while: the same 429 for a known and an unknown email, a correct password refused too; it lifts by itself", async () => {
    const r = await register();
    const unknown = uniqueEmail();
    for (let i = 0; i < 5; i++) {
      await expectError(await login(r.data.email, "wrong horse"), 401, "INVALID_CREDENTIALS");
      await expectError(await login(unknown, "wrong horse"), 401, "INVALID_CREDENTIALS");
    }
    const locked = await login(r.data.email, "correct horse");
    const lockedUnknown = await login(unknown, "correct horse");
    expect(locked.headers.get("retry-after")).toBe(lockedUnknown.headers.get("retry-after"));
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    const a = await expectError(locked, 429, "RATE_LIMITED");
    const b = await expectError(lockedUnknown, 429, "RATE_LIMITED");
    expect(a.message).toBe(b.message);
    vi.useFakeTimers({ now: Date.now() + 31_000, toFake: ["Date"] });
    expect((await login(r.data.email, "correct horse")).status).toBe(200);
  });

  it("parallel guesses get no more tries than sequential ones: at most 5 are checked per lock window, for login and change-password", async () => {
    const r = await register();
    // From 20 addresses, so the per-IP limit is not what stops them.
    const guesses = await Promise.all(Array.from({ length: 20 }, (_, i) => login(r.data.email, `wrong horse ${i}`, `198.18.1.${i + 1}`)));
    const statuses = guesses.map((g) => g.status);
    expect(statuses.filter((s) => s === 401).length, statuses.join(",")).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(15);

    const other = await register();
    const changes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call("/auth/change-password", { method: "POST", token: other.token, json: { current_password: `wrong horse ${i}`, new_password: "a new password" } }),
      ),
    );
    const changed = changes.map((c) => c.status);
    expect(changed.filter((s) => s === 401).length, changed.join(",")).toBe(5);
    expect(changed.filter((s) => s === 429).length).toBe(15);
  });
});

describe("resend verification", () => {
  it("parallel requests: exactly one is sent (even when the store answers slowly, as KV does across locations)", async () => {
    const r = await register();
    const get = env.KV.get.bind(env.KV);
    // A read answered a moment after it was made (a value older than a write in between): what KV gives across locations.
    vi.spyOn(env.KV, "get").mockImplementation((async (...args: Parameters<typeof env.KV.get>) => {
      const value = await (get as (...a: unknown[]) => Promise<unknown>)(...args);
      await new Promise((done) => setTimeout(done, 100));
      return value;
    }) as typeof env.KV.get);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post("/auth/resend-verification", r.token)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429, 429, 429, 429, 429]);
  });
});

describe("password hygiene", () => {
  it("a hash with another iteration count is rehashed at the current count on login", async () => {
    const r = await register();
    const salt = crypto.getRandomValues(new Uint8Array(16));
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("correct horse"), "PBKDF2", false, ["deriveBits"]);
    const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: 50_000 }, key, 256));
    const b64 = (u: Uint8Array) => btoa(String.fromCharCode(...u));
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?")
      .bind(`pbkdf2-sha256$50000$${b64(salt)}$${b64(bits)}`, r.data.id)
      .run();
    expect((await login(r.data.email, "correct horse")).status).toBe(200);
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(r.data.id).first<{ password_hash: string }>();
    expect(row!.password_hash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect((await login(r.data.email, "correct horse")).status).toBe(200);
  });

  it("a new password found in the breached-password list (k-anonymity range query) is refused", async () => {
    (env as any).BREACHED_PASSWORDS_URL = "https://breach.example/range/";
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode("password123")))]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase();
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.startsWith("https://breach.example/range/")) throw new Error(`unexpected fetch ${url}`);
      return new Response(`0000000000000000000000000000000000A:3\r\n${digest.slice(5)}:25000\r\n`);
    });
    const e = await expectError(
      await call("/auth/register", { method: "POST", json: { email: uniqueEmail(), password: "password123", name: "B" } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(e.details).toEqual([{ path: "password", message: expect.stringContaining("breach") }]);
    // Only the first five hex characters of the SHA-1 leave the Worker.
    expect(String(spy.mock.calls[0][0])).toBe(`https://breach.example/range/${digest.slice(0, 5)}`);
    expect((await call("/auth/register", { method: "POST", json: { email: uniqueEmail(), password: "not in the list", name: "B" } })).status).toBe(201);
  });
});

describe("bot challenge hostname", () => {
  it("a token solved on another site is refused: 403 CHALLENGE_FAILED", async () => {
    (env as any).TURNSTILE_SITE_KEY = "1x00000000000000000000AA";
    (env as any).TURNSTILE_SECRET = "1x0000000000000000000000000000000AA";
    const answer = (hostname: string) =>
      vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ success: true, action: "challenge-spin-v2", hostname }));
    answer("evil.example");
    const body = { email: uniqueEmail(), password: "correct horse", name: "C", challengeToken: "tok" };
    await expectError(await call("/auth/register", { method: "POST", json: body }), 403, "CHALLENGE_FAILED");
    vi.restoreAllMocks();
    answer("api.wilayah.test");
    const ok = await call("/auth/register", { method: "POST", json: body });
    expect(ok.status, await ok.clone().text()).toBe(201);
    vi.restoreAllMocks();
    (env as any).CHALLENGE_HOSTNAMES = "app.example.com";
    answer("app.example.com");
    expect((await call("/auth/register", { method: "POST", json: { ...body, email: uniqueEmail() } })).status).toBe(201);
  });
});

describe("production mail", () => {
  it("with no mail provider in production: nothing is pretended and no link is logged", async () => {
    (env as any).ENVIRONMENT = "production";
    const log = vi.spyOn(console, "log");
    const err = vi.spyOn(console, "error");
    const r = await register();
    expect(r.email_verification_sent).toBe(false);
    expect((await json(await post("/auth/resend-verification", r.token))).data.email_verification_sent).toBe(false);
    expect((await post("/auth/forgot-password", undefined, { email: r.data.email })).status).toBe(200);
    const printed = [...log.mock.calls, ...err.mock.calls].flat().map(String).join("\n");
    expect(printed).not.toContain("token=");
  });
});

describe("session secret rules", () => {
  it("JWT_SECRET_PREVIOUS gets the same length rule as JWT_SECRET: a short one refuses to run", async () => {
    const before = env.JWT_SECRET_PREVIOUS;
    (env as any).JWT_SECRET_PREVIOUS = "too-short";
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expectError(
        await call("/auth/register", { method: "POST", json: { email: uniqueEmail(), password: "whatever pw", name: "P" } }),
        500,
        "INTERNAL_ERROR",
      );
    } finally {
      (env as any).JWT_SECRET_PREVIOUS = before;
    }
    expect(err.mock.calls.flat().join(" ")).toContain("JWT_SECRET_PREVIOUS");
  });
});

describe("NIK in logs", () => {
  it("an unexpected error on a NIK path never logs the number, also written with separators", async () => {
    const { seedUserWithKey } = await import("../helpers");
    const err = vi.spyOn(console, "error").mockImplementation(() => {});
    for (const nik of ["3273-0945-1290-0001", "3273.0945.1290.0001", "3273%2009451290%200001", "32.73.09.451290.0001"]) {
      const k = await seedUserWithKey();
      // An error of ours (not a platform failure, which would be a 503 and a KV failure not even
      // that: key lookups fall back to D1): the key lookup's cache misses and its D1 query breaks.
      vi.spyOn(env.KV, "get").mockResolvedValue(null as never);
      vi.spyOn(env.DB, "prepare").mockImplementation(() => {
        throw new Error("a bug of ours");
      });
      const res = await call(`/api/v1/wilayah/nik/${nik}`, { key: k.secret });
      expect(res.status).toBe(500);
      vi.mocked(env.KV.get).mockRestore();
      vi.mocked(env.DB.prepare).mockRestore();
    }
    const logged = err.mock.calls.flat().join("\n");
    expect(logged).toContain("unhandled_error");
    expect(logged.replace(/[^0-9]/g, "")).not.toContain("3273094512900001");
  });
});
