import { env } from "cloudflare:workers";
import { decodeProtectedHeader, SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PBKDF2_ITERATIONS } from "../../src/auth/passwords";
import { signVerification } from "../../src/auth/tokens";
import { call, expectError, json, login, register, uniqueEmail, verifyLinkFrom } from "../helpers";

// Tests switch features on by setting config on `env` (the Worker's own bindings object); restore after each.
const configured = { TURNSTILE_SITE_KEY: env.TURNSTILE_SITE_KEY, GOOGLE_CLIENT_ID: env.GOOGLE_CLIENT_ID, GITHUB_CLIENT_ID: env.GITHUB_CLIENT_ID };
afterEach(() => {
  vi.restoreAllMocks();
  Object.assign(env, configured);
  delete (env as any).TURNSTILE_SECRET;
  delete (env as any).GOOGLE_CLIENT_SECRET;
  delete (env as any).RESEND_API_KEY;
});

describe("register", () => {
  it("creates an unverified user, sends the verification link and returns a session token", async () => {
    const log = vi.spyOn(console, "log");
    const email = uniqueEmail();
    const res = await call("/auth/register", { method: "POST", json: { email, password: "correct horse", name: "Ani" } });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.data).toEqual({ id: expect.stringMatching(/^user_/), email, email_verified: false });
    expect(body.email_verification_sent).toBe(true);
    expect(log.mock.calls.flat().join("\n")).toContain("/auth/verify-email?token=");
    const header = decodeProtectedHeader(body.token);
    expect(header).toMatchObject({ alg: "HS256", kid: expect.any(String) });
    const claims = JSON.parse(atob(body.token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    // The contract's claims, plus a unique `jti` (RFC 7519) so each session can be ended on its own.
    expect(Object.keys(claims).sort()).toEqual(["email", "exp", "iat", "id", "is_admin", "jti"]);
    expect(claims.exp - claims.iat).toBe(7 * 24 * 3600);
    const me = await json(await call("/auth/me", { token: body.token }));
    expect(me.data).toEqual({ id: body.data.id, email, name: "Ani", plan: "free", status: "active", email_verified: false });
  });

  it("normalises the email: case and whitespace", async () => {
    const email = uniqueEmail();
    const r = await register({ email: `  ${email.toUpperCase()} ` });
    expect(r.data.email).toBe(email);
    await expectError(
      await call("/auth/register", { method: "POST", json: { email: email.toUpperCase(), password: "another pass", name: "B" } }),
      409,
      "EMAIL_TAKEN",
    );
    expect((await login(` ${email.toUpperCase()}`, "correct horse")).status).toBe(200);
  });

  it("two concurrent registrations of one email make exactly one user", async () => {
    const email = uniqueEmail();
    const results = await Promise.all(
      [1, 2, 3].map((i) => call("/auth/register", { method: "POST", json: { email, password: "correct horse", name: `R${i}` }, ip: `10.9.0.${i}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first<{ n: number }>();
    expect(n?.n).toBe(1);
  });

  it("validates fields: 400 VALIDATION_ERROR with details; bad JSON 400 INVALID_JSON; huge body 413", async () => {
    const err = await expectError(
      await call("/auth/register", { method: "POST", json: { email: "not-an-email", password: "short", name: "" } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(err.details!.map((d) => d.path).sort()).toEqual(["email", "name", "password"]);
    await expectError(
      await call("/auth/register", { method: "POST", json: { email: uniqueEmail(), password: "x".repeat(129), name: "A" } }),
      400,
      "VALIDATION_ERROR",
    );
    await expectError(
      await call("/auth/register", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } }),
      400,
      "INVALID_JSON",
    );
    await expectError(
      await call("/auth/register", { method: "POST", body: JSON.stringify({ name: "x".repeat(70_000) }), headers: { "content-type": "application/json" } }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });

  it("a failed send never fails registration (provider down): email_verification_sent false", async () => {
    (env as any).RESEND_API_KEY = "re_test";
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockRejectedValue(new Error("network down"));
    const r = await register();
    expect(r.email_verification_sent).toBe(false);
    expect(fetchSpy.mock.calls[0][0]).toBe("https://api.resend.com/emails");
  });

  it("sends through Resend when configured", async () => {
    (env as any).RESEND_API_KEY = "re_test";
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify({ id: "m1" }), { status: 200 }));
    const r = await register();
    expect(r.email_verification_sent).toBe(true);
    const init = fetchSpy.mock.calls[0][1]!;
    expect((init.headers as Record<string, string>).authorization).toBe("Bearer re_test");
    expect(JSON.parse(init.body as string).text).toContain("/auth/verify-email?token=");
  });
});

describe("login", () => {
  it("returns the user and a token; wrong password and unknown email are the same 401", async () => {
    const r = await register();
    const ok = await login(r.data.email, "correct horse");
    expect(ok.status).toBe(200);
    const body = await json(ok);
    expect(body.data).toMatchObject({ id: r.data.id, email: r.data.email, plan: "free", status: "active" });
    expect(typeof body.token).toBe("string");
    const wrong = await expectError(await login(r.data.email, "wrong horse"), 401, "INVALID_CREDENTIALS");
    const unknown = await expectError(await login(uniqueEmail(), "wrong horse"), 401, "INVALID_CREDENTIALS");
    expect(wrong.message).toBe(unknown.message);
  });

  it("passwords are PBKDF2-SHA256 at 100,000 iterations with a per-user salt, stored self-describing", async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const a = await register();
    const b = await register();
    const rows = await env.DB.prepare("SELECT password_hash FROM users WHERE id IN (?, ?)").bind(a.data.id, b.data.id).all<{ password_hash: string }>();
    const [ha, hb] = rows.results.map((r) => r.password_hash);
    expect(ha).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(ha.split("$")[2]).not.toBe(hb.split("$")[2]);
    expect(ha).not.toContain("correct horse");
  });

  it("a suspended account cannot log in: 403 ACCOUNT_SUSPENDED", async () => {
    const r = await register();
    await env.DB.prepare("UPDATE users SET status = 'suspended' WHERE id = ?").bind(r.data.id).run();
    await expectError(await login(r.data.email, "correct horse"), 403, "ACCOUNT_SUSPENDED");
  });

  it("is throttled per client IP: 429 RATE_LIMITED with Retry-After", async () => {
    // 10 per minute per IP in a fixed window: 21 attempts cross the limit even if a window ends mid-test.
    const ip = "10.77.0.1";
    const statuses: Response[] = [];
    for (let i = 0; i < 21; i++) statuses.push(await login(uniqueEmail(), "whatever pw", ip));
    const limited = statuses.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    expect(limited!.headers.get("retry-after")).toBe("60");
    await expectError(limited!, 429, "RATE_LIMITED");
    expect((await login(uniqueEmail(), "whatever pw", "10.77.0.2")).status).toBe(401); // another client is not affected
  });
});

describe("session tokens", () => {
  const secret = () => new TextEncoder().encode(env.JWT_SECRET);

  it("missing header 401 MISSING_TOKEN; malformed 401 UNAUTHORIZED", async () => {
    await expectError(await call("/auth/me"), 401, "MISSING_TOKEN");
    await expectError(await call("/auth/me", { headers: { authorization: "Basic abc" } }), 401, "UNAUTHORIZED");
    await expectError(await call("/auth/me", { headers: { authorization: "Bearer" } }), 401, "UNAUTHORIZED");
  });

  it("expired, tampered, wrong-secret, wrong-alg and alg none tokens are 401 INVALID_TOKEN", async () => {
    const r = await register();
    const { kid } = decodeProtectedHeader(r.token);
    const claims = { id: r.data.id, email: r.data.email, is_admin: false };
    const expired = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid }).setIssuedAt(1_000).setExpirationTime(2_000).sign(secret());
    const wrongSecret = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret-another-1"));
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: "HS512", kid }).setIssuedAt().setExpirationTime("1h").sign(new Uint8Array(64).fill(7));
    const [h, p, s] = r.token.split(".");
    const tamperedPayload = btoa(JSON.stringify({ ...claims, is_admin: true, iat: 1, exp: 9_999_999_999 }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    const none = `${btoa(JSON.stringify({ alg: "none", kid })).replace(/=+$/, "")}.${p}.`;
    for (const token of [expired, wrongSecret, hs512, `${h}.${tamperedPayload}.${s}`, none, `${h}.${p}.${s.slice(0, -2)}AA`]) {
      await expectError(await call("/auth/me", { token }), 401, "INVALID_TOKEN");
    }
  });

  it("tokens signed with the previous secret still work (rotation)", async () => {
    const r = await register();
    const prev = new TextEncoder().encode(env.JWT_SECRET_PREVIOUS!);
    const kid = [...new Uint8Array(await crypto.subtle.digest("SHA-256", prev)).slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const token = await new SignJWT({ id: r.data.id, email: r.data.email, is_admin: false })
      .setProtectedHeader({ alg: "HS256", kid })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(prev);
    expect((await call("/auth/me", { token })).status).toBe(200);
  });

  it("the Bearer scheme name is case-insensitive (RFC 7235)", async () => {
    const r = await register();
    for (const scheme of ["bearer", "BEARER", "BeArEr"]) {
      expect((await call("/auth/me", { headers: { authorization: `${scheme} ${r.token}` } })).status, scheme).toBe(200);
    }
  });

  it("correctly signed tokens without exp, with iat in the future or living over 7 days are 401 INVALID_TOKEN", async () => {
    const r = await register();
    const { kid } = decodeProtectedHeader(r.token);
    const claims = { id: r.data.id, email: r.data.email, is_admin: false };
    const now = Math.floor(Date.now() / 1000);
    const sign = (b: SignJWT) => b.setProtectedHeader({ alg: "HS256", kid }).sign(secret());
    const noExp = await sign(new SignJWT(claims).setIssuedAt());
    const noIat = await sign(new SignJWT(claims).setExpirationTime("1h"));
    const future = await sign(new SignJWT(claims).setIssuedAt(now + 3600).setExpirationTime(now + 7200));
    const tooLong = await sign(new SignJWT(claims).setIssuedAt(now).setExpirationTime(now + 8 * 24 * 3600));
    for (const token of [noExp, noIat, future, tooLong]) await expectError(await call("/auth/me", { token }), 401, "INVALID_TOKEN");
    const fine = await sign(new SignJWT(claims).setIssuedAt(now).setExpirationTime(now + 7 * 24 * 3600));
    expect((await call("/auth/me", { token: fine })).status).toBe(200);
  });

  it("a verification token is refused as a session token", async () => {
    const r = await register();
    const verification = await signVerification(env, r.data.id, r.data.email);
    await expectError(await call("/auth/me", { token: verification }), 401, "INVALID_TOKEN");
  });
});

describe("email verification", () => {
  const dashboard = () => env.DASHBOARD_URL.replace(/\/$/, "") || "/portal";

  it("the emailed link verifies and redirects to the dashboard", async () => {
    const log = vi.spyOn(console, "log");
    const r = await register();
    const link = verifyLinkFrom(log);
    const res = await call(link.pathname + link.search, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${dashboard()}/?verified=1`);
    expect((await json(await call("/auth/me", { token: r.token }))).data.email_verified).toBe(true);
  });

  it("a session token, a tampered or missing token redirect with verify_error=invalid; an old one with expired", async () => {
    const r = await register();
    for (const token of [r.token, "abc.def.ghi", ""]) {
      const res = await call(`/auth/verify-email?token=${encodeURIComponent(token)}`, { redirect: "manual" });
      expect(res.headers.get("location")).toBe(`${dashboard()}/?verify_error=invalid`);
    }
    vi.useFakeTimers({ now: Date.now() - 25 * 3600 * 1000, toFake: ["Date"] });
    const old = await signVerification(env, r.data.id, r.data.email);
    vi.useRealTimers();
    const res = await call(`/auth/verify-email?token=${old}`, { redirect: "manual" });
    expect(res.headers.get("location")).toBe(`${dashboard()}/?verify_error=expired`);
    expect((await json(await call("/auth/me", { token: r.token }))).data.email_verified).toBe(false);
  });

  it("resend: 1 per minute per user (429 with Retry-After), 409 once verified", async () => {
    const log = vi.spyOn(console, "log");
    const r = await register();
    const first = await call("/auth/resend-verification", { method: "POST", token: r.token });
    expect(first.status).toBe(200);
    expect((await json(first)).data.email_verification_sent).toBe(true);
    const second = await call("/auth/resend-verification", { method: "POST", token: r.token });
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectError(second, 429, "RATE_LIMITED");
    const link = verifyLinkFrom(log);
    await call(link.pathname + link.search, { redirect: "manual" });
    await expectError(await call("/auth/resend-verification", { method: "POST", token: r.token }), 409, "ALREADY_VERIFIED");
    await expectError(await call("/auth/resend-verification", { method: "POST" }), 401, "MISSING_TOKEN");
  });
});

describe("bot challenge", () => {
  const enable = () => {
    (env as any).TURNSTILE_SITE_KEY = "1x00000000000000000000AA";
    (env as any).TURNSTILE_SECRET = "1x0000000000000000000000000000000AA";
  };
  const siteverify = (answer: object | Error) =>
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      if (answer instanceof Error) throw answer;
      return new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
    });

  it("config reflects it; OAuth flags follow their client ids and secrets", async () => {
    expect((await json(await call("/auth/config"))).data).toEqual({
      challenge_site_key: "",
      challenge_required: false,
      google_oauth_enabled: false,
      github_oauth_enabled: false,
    });
    enable();
    (env as any).GOOGLE_CLIENT_ID = "g-client";
    (env as any).GITHUB_CLIENT_ID = "gh-client"; // no secret: stays off
    expect((await json(await call("/auth/config"))).data.google_oauth_enabled).toBe(false);
    (env as any).GOOGLE_CLIENT_SECRET = "g-secret";
    expect((await json(await call("/auth/config"))).data).toEqual({
      challenge_site_key: "1x00000000000000000000AA",
      challenge_required: true,
      google_oauth_enabled: true,
      github_oauth_enabled: false,
    });
  });

  it("missing token: 400 CHALLENGE_REQUIRED; good token passes with secret, response, remoteip and idempotency key", async () => {
    enable();
    await expectError(
      await call("/auth/register", { method: "POST", json: { email: uniqueEmail(), password: "correct horse", name: "C" } }),
      400,
      "CHALLENGE_REQUIRED",
    );
    const spy = siteverify({ success: true, action: "challenge-spin-v2", hostname: "api.wilayah.test" });
    const res = await call("/auth/register", {
      method: "POST",
      json: { email: uniqueEmail(), password: "correct horse", name: "C", challengeToken: "XXXX.DUMMY.TOKEN.XXXX" },
      ip: "203.0.113.9",
    });
    expect(res.status).toBe(201);
    const [url, init] = spy.mock.calls[0];
    expect(url).toBe(env.CHALLENGE_VERIFY_URL);
    const form = init!.body as FormData;
    expect(form.get("secret")).toBe("1x0000000000000000000000000000000AA");
    expect(form.get("response")).toBe("XXXX.DUMMY.TOKEN.XXXX");
    expect(form.get("remoteip")).toBe("203.0.113.9");
    expect(form.get("idempotency_key")).toBeTruthy();
  });

  it.each([
    ["invalid token", { success: false, "error-codes": ["invalid-input-response"] }],
    ["action mismatch", { success: true, action: "login", hostname: "api.wilayah.test" }],
    ["provider unreachable", new Error("connect ECONNREFUSED")],
  ])("%s: 403 CHALLENGE_FAILED", async (_, answer) => {
    enable();
    siteverify(answer as object);
    await expectError(
      await call("/auth/login", { method: "POST", json: { email: uniqueEmail(), password: "correct horse", challengeToken: "tok" } }),
      403,
      "CHALLENGE_FAILED",
    );
  });
});

describe("strict bodies and names", () => {
  it("a JSON route called with another content type is 415 UNSUPPORTED_MEDIA_TYPE, not read as {}", async () => {
    const body = JSON.stringify({ email: uniqueEmail(), password: "correct horse" });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      await expectError(await call("/auth/login", { method: "POST", body, headers: { "content-type": type } }), 415, "UNSUPPORTED_MEDIA_TYPE");
    }
    await expectError(await call("/auth/login", { method: "POST", body }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expect((await call("/auth/login", { method: "POST", body, headers: { "content-type": "application/json; charset=utf-8" } })).status).toBe(401);
  });

  it("names with NUL, control characters or bidirectional overrides are 400 VALIDATION_ERROR (user, key, admin reason)", async () => {
    const { verifiedDeveloper, makeAdmin } = await import("../helpers");
    for (const name of ["Ani\u0000", "Ani\nBudi", "evil\u202Egnp.exe", "x\u2066y", "\u0007"]) {
      const res = await call("/auth/register", { method: "POST", json: { email: uniqueEmail(), password: "correct horse", name } });
      const e = await expectError(res, 400, "VALIDATION_ERROR");
      expect(e.details?.[0]?.path, JSON.stringify(name)).toBe("name");
    }
    const dev = await verifiedDeveloper();
    await expectError(await call("/user/keys", { method: "POST", token: dev.token, json: { name: "prod\u202Ekey" } }), 400, "VALIDATION_ERROR");
    const admin = await makeAdmin();
    await expectError(
      await call(`/admin/users/${dev.data.id}/credits`, { method: "POST", token: admin.token, json: { amount: 5, reason: "goodwill\u202E" } }),
      400,
      "VALIDATION_ERROR",
    );
    expect((await call("/user/keys", { method: "POST", token: dev.token, json: { name: "Prod key – Jakarta ✓" } })).status).toBe(201);
  });
});
