import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, createKey, expectError, json, login, makeAdmin, printed, register, uniqueEmail, verifiedDeveloper, verifyLinkFrom } from "../helpers";
import { Browser, signedUp } from "./browser";

afterEach(() => {
  vi.restoreAllMocks();
  (env as any).TURNSTILE_SITE_KEY = "";
  delete (env as any).TURNSTILE_SECRET;
});

describe("portal pages and security headers", () => {
  it("pages carry a CSP without inline scripts, no framing, a referrer policy and nosniff", async () => {
    const res = await new Browser().get("/portal/login");
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\son[a-z]+=/);
  });

  it("the script and stylesheet are files; / is the landing page, which links to the portal; signed-out pages go to login", async () => {
    expect((await call("/portal/assets/app.js")).headers.get("content-type")).toContain("javascript");
    expect((await call("/portal/assets/app.css")).headers.get("content-type")).toContain("text/css");
    // Issue 26: `/` is the front door (test/site/landing.test.ts), no longer a redirect to the portal.
    const home = await call("/", { redirect: "manual" });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('href="/portal"');
    for (const path of ["/portal/keys", "/portal/usage", "/portal/billing", "/portal/admin"]) {
      const res = await call(path, { redirect: "manual" });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/portal/login");
    }
  });

  it("Indonesian by default, English by Accept-Language or the toggle", async () => {
    const b = new Browser();
    expect(await (await b.get("/portal/login")).text()).toContain("Masuk ke akun Anda");
    expect(await (await b.get("/portal/login", { "accept-language": "en-US,en;q=0.9" })).text()).toContain("Log in to your account");
    const toggle = await b.get("/portal/lang/en?next=/portal/signup");
    expect(toggle.headers.get("location")).toBe("/portal/signup");
    expect(await (await b.get("/portal/signup")).text()).toContain("Create an account");
    expect((await b.get("/portal/lang/en?next=https://evil.example/")).headers.get("location")).toBe("/portal");
  });
});

describe("sign-up, verification, session cookie, CSRF", () => {
  it("sign-up sets an HttpOnly, SameSite=Lax session cookie holding the API's session token", async () => {
    const b = new Browser();
    await b.get("/portal/signup");
    const res = await b.post("/portal/signup", { name: "Ani", email: uniqueEmail(), password: "correct horse" });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-wl_session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/); // https origin
    const token = b.cookies.get("__Host-wl_session")!;
    expect((await call("/auth/me", { token })).status).toBe(200);
    expect(res.headers.get("location")).not.toContain(token);
  });

  it("a POST without the Origin of this site, or without the CSRF token, is refused", async () => {
    const b = new Browser();
    await b.get("/portal/login");
    for (const opts of [{ origin: null }, { origin: "https://evil.example" }, { csrf: "wrong-token-wrong-token" }]) {
      const res = await b.post("/portal/signup", { name: "X", email: uniqueEmail(), password: "correct horse" }, opts);
      expect(res.status).toBe(403);
      expect(b.cookies.has("__Host-wl_session")).toBe(false);
    }
  });

  it("the contract's errors are shown in words: taken email, short password, wrong password", async () => {
    const { email } = await signedUp();
    const b = new Browser();
    await b.get("/portal/lang/en");
    await b.get("/portal/signup");
    let res = await b.post("/portal/signup", { name: "B", email, password: "correct horse" });
    expect(res.status).toBe(409);
    expect(b.last).toContain("already exists");
    res = await b.post("/portal/signup", { name: "B", email: uniqueEmail(), password: "short" });
    expect(res.status).toBe(400);
    expect(b.last).toContain("password: at least 8 characters");
    res = await b.post("/portal/login", { email, password: "wrong password" });
    expect(res.status).toBe(401);
    expect(b.last).toContain("Email or password is wrong.");
  });

  it("keys need a verified email (explained, with resend); the link lands on the portal; then a key is shown once", async () => {
    const { b, link } = await signedUp();
    let page = await (await b.get("/portal/keys")).text();
    expect(page).toContain('data-testid="verify-first"');
    // development (the console mailer): the page says where the link went (issue 41)
    expect(page).toContain('data-testid="console-mailer"');
    expect(page).toMatch(/printed in the terminal|dicetak di terminal/);
    expect(page).toMatch(/<button type="submit" class="mt" disabled="">/);
    // The form is disabled, and the service refuses anyway.
    let res = await b.post("/portal/keys", { name: "app" });
    expect(res.status).toBe(403);
    expect(b.last).toMatch(/Verifikasi alamat email Anda dulu|Verify your email address first/);
    const log = vi.spyOn(console, "log");
    res = await b.post("/portal/verify/resend", {});
    expect(res.headers.get("location")).toBe("/portal/keys?msg=resent");
    expect(verifyLinkFrom(log)).toBeTruthy();
    const landing = await call(link.pathname + link.search, { redirect: "manual" });
    expect(landing.headers.get("location")).toBe("/portal/?verified=1");
    res = await b.follow(await b.get("/portal/?verified=1"));
    const after = await res.text();
    expect(after).toMatch(/terverifikasi|is verified/);
    expect(after).not.toContain('data-testid="verify-first"');

    res = await b.post("/portal/keys", { name: "my app" });
    expect(res.status).toBe(201);
    const secret = /<code id="new-key-secret">([^<]+)<\/code>/.exec(b.last)![1];
    expect(secret).toMatch(/^wk_live_/);
    // times are labelled: Jakarta time
    expect(b.last).toMatch(/\d{2}[:.]\d{2} WIB</);
    expect((await call("/api/v1/wilayah/provinsi/32", { key: secret })).status).toBe(200);
    page = await (await b.get("/portal/keys")).text();
    expect(page).not.toContain(secret);
    const keyId = /data-key-id="(key_[^"]+)"/.exec(page)![1];
    res = await b.post(`/portal/keys/${keyId}/revoke`, {});
    expect(res.headers.get("location")).toBe("/portal/keys?msg=key_revoked");
    await expectError(await call("/api/v1/wilayah/provinsi/32", { key: secret }), 401, "INVALID_API_KEY");
  });

  it("verification errors land with a message; logout clears the cookie", async () => {
    const b = new Browser();
    const res = await b.follow(await b.get("/portal/?verify_error=expired", { "accept-language": "en" }));
    expect(await res.text()).toMatch(/kedaluwarsa|has expired/);
    const { b: signed } = await signedUp();
    const out = await signed.post("/portal/logout", {});
    expect(out.headers.getSetCookie().some((c) => c.startsWith("__Host-wl_session=;") || /__Host-wl_session=.*Max-Age=0/.test(c))).toBe(true);
    expect(signed.cookies.has("__Host-wl_session")).toBe(false);
    expect((await signed.get("/portal/keys")).headers.get("location")).toBe("/portal/login");
  });
});

describe("sessions, recovery and security events in the portal", () => {
  it("the session and CSRF cookies carry the __Host- prefix (Secure, Path=/, no Domain)", async () => {
    const b = new Browser();
    const first = await b.get("/portal/login");
    const csrf = first.headers.getSetCookie().find((c) => c.startsWith("__Host-wl_csrf="))!;
    expect(csrf).toMatch(/Secure/);
    expect(csrf).toMatch(/Path=\//);
    const res = await b.post("/portal/signup", { name: "Ani", email: uniqueEmail(), password: "correct horse" });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__Host-wl_session="))!;
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it("logout ends the session on the server too: the copied token stops working", async () => {
    const { b } = await signedUp();
    const token = b.cookies.get("__Host-wl_session")!;
    expect((await call("/auth/me", { token })).status).toBe(200);
    await b.post("/portal/logout", {});
    await expectError(await call("/auth/me", { token }), 401, "INVALID_TOKEN");
  });

  it("forgot and reset password pages: the emailed link sets a new password and ends every session", async () => {
    const { b, email, link: verify } = await signedUp();
    await b.get(verify.pathname + verify.search); // verified in the browser that signed up: the owner is proven
    const oldToken = b.cookies.get("__Host-wl_session")!;
    const other = new Browser();
    await other.get("/portal/lang/en");
    expect(await (await other.get("/portal/login")).text()).toContain('href="/portal/forgot"');
    expect((await other.get("/portal/forgot")).status).toBe(200);
    const log = vi.spyOn(console, "log");
    let res = await other.post("/portal/forgot", { email });
    expect(res.status).toBe(200);
    expect(other.last).toContain("If an account has this email");
    const [printedLink] = await printed(log, /https?:\/\/\S+\/portal\/reset\?token=\S+/);
    log.mockRestore();
    const link = new URL(printedLink);
    expect((await other.get(link.pathname + link.search)).status).toBe(200);
    expect(other.last).toContain('name="token"');
    res = await other.post("/portal/reset", { token: link.searchParams.get("token")!, password: "brand new password" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/portal/login?msg=password_reset");
    await expectError(await call("/auth/me", { token: oldToken }), 401, "INVALID_TOKEN");
    expect((await login(email, "brand new password")).status).toBe(200);
    res = await other.post("/portal/reset", { token: link.searchParams.get("token")!, password: "yet another one" });
    expect(res.status).toBe(400);
  });

  it("the security page: change password, log out everywhere, recent security events", async () => {
    const { b, email } = await signedUp();
    await b.get("/portal/lang/en");
    const elsewhere = (await json(await login(email, "correct horse"))).token;
    let page = await (await b.get("/portal/security")).text();
    expect(page).toContain('data-testid="security-events"');
    expect(page).toContain("login_succeeded");
    let res = await b.post("/portal/security/password", { current_password: "correct horse", new_password: "a better password" });
    expect(res.status).toBe(303);
    await expectError(await call("/auth/me", { token: elsewhere }), 401, "INVALID_TOKEN");
    page = await (await b.follow(res)).text();
    expect(page).toContain("password_changed");
    res = await b.post("/portal/security/logout-all", {});
    expect(res.headers.get("location")).toBe("/portal/login?msg=logged_out_everywhere");
    expect((await b.get("/portal/keys")).headers.get("location")).toBe("/portal/login");
  });

  it("the security page shows the IP only of what the user did: not an admin's, not a reset asked for by someone else", async () => {
    const admin = await makeAdmin();
    const { b, email } = await signedUp();
    const me = (await json(await login(email, "correct horse", "203.0.113.11"))).data;
    await call(`/admin/users/${me.id}/credits`, { method: "POST", token: admin.token, json: { amount: 3, reason: "goodwill" }, ip: "203.0.113.9" });
    const log = vi.spyOn(console, "log");
    await call("/auth/forgot-password", { method: "POST", json: { email }, ip: "203.0.113.10" });
    await printed(log, /\/reset\?token=/);
    log.mockRestore();
    await login(email, "not my password", "203.0.113.12");
    const page = await (await b.get("/portal/security")).text();
    for (const event of ["login_succeeded", "admin_credits_changed", "password_reset_requested", "login_failed"]) expect(page).toContain(event);
    expect(page).toContain("203.0.113.11");
    for (const other of ["203.0.113.9", "203.0.113.10", "203.0.113.12"]) expect(page).not.toContain(other);
    // The admin's own trail keeps every address.
    const trail = JSON.stringify((await json(await call(`/admin/audit?user_id=${me.id}&per_page=100`, { token: admin.token }))).data);
    for (const ip of ["203.0.113.9", "203.0.113.10", "203.0.113.11", "203.0.113.12"]) expect(trail).toContain(ip);
  });

  it("verifying in the browser that signed up proves the owner: a later reset keeps the keys", async () => {
    const { b, link, email } = await signedUp();
    await b.get(link.pathname + link.search);
    const token = b.cookies.get("__Host-wl_session")!;
    const key = await createKey(token);
    const log = vi.spyOn(console, "log");
    await call("/auth/forgot-password", { method: "POST", json: { email } });
    const reset = new URL((await printed(log, /https?:\/\/\S+\/portal\/reset\?token=\S+/))[0]);
    log.mockRestore();
    const res = await call("/auth/reset-password", { method: "POST", json: { token: reset.searchParams.get("token"), password: "brand new password" } });
    expect((await json(res)).data).toMatchObject({ takeover: false, keys_revoked: 0 });
    expect((await call("/api/v1/wilayah/provinsi/32", { key: key.key })).status).toBe(200);
  });
});

describe("bot challenge on the portal's forms", () => {
  it("when required, sign-up renders the widget (action challenge-spin-v2) and sends its token to the same check", async () => {
    (env as any).TURNSTILE_SITE_KEY = "1x00000000000000000000AA";
    (env as any).TURNSTILE_SECRET = "1x0000000000000000000000000000000AA";
    const b = new Browser();
    await b.get("/portal/lang/en");
    const page = await (await b.get("/portal/signup")).text();
    expect(page).toContain('<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"');
    expect(page).toContain('data-sitekey="1x00000000000000000000AA" data-action="challenge-spin-v2"');
    let res = await b.post("/portal/signup", { name: "C", email: uniqueEmail(), password: "correct horse" });
    expect(res.status).toBe(400);
    expect(b.last).toContain("Complete the bot check first.");
    const verify = vi.spyOn(globalThis, "fetch").mockImplementation(
      async () =>
        new Response(JSON.stringify({ success: true, action: "challenge-spin-v2", hostname: "api.wilayah.test" }), {
          headers: { "content-type": "application/json" },
        }),
    );
    res = await b.post("/portal/signup", { name: "C", email: uniqueEmail(), password: "correct horse", "cf-turnstile-response": "XXXX.DUMMY.TOKEN.XXXX" });
    expect(res.status, /class="notice err"[^>]*>([^<]*)/.exec(b.last)?.[1]).toBe(303);
    expect(((verify.mock.calls[0][1] as RequestInit).body as FormData).get("response")).toBe("XXXX.DUMMY.TOKEN.XXXX");
  });
});

describe("usage, billing and invoices", () => {
  it("usage page: totals, per key, per endpoint and an SVG chart drawn server-side", async () => {
    const dev = await verifiedDeveloper();
    const key = await createKey(dev.token);
    await call("/api/v1/wilayah/provinsi", { key: key.key });
    const b = new Browser();
    await b.get("/portal/login");
    await b.post("/portal/login", { email: dev.data.email, password: "correct horse" });
    const html = await (await b.get("/portal/usage")).text();
    expect(html).toMatch(/data-testid="usage-total">\s*1\s*</);
    expect(html).toContain("<svg");
    // days are UTC days, and the page says so (issue 41)
    expect(html).toMatch(/data-testid="usage-days-utc">\s*(Days are UTC days|Hari di sini adalah hari UTC)/);
    expect(html).toContain("/wilayah/provinsi");
    expect((await b.get("/portal/usage?month=2020-01")).status).toBe(200);
  });

  it("the admin page says its call count lags the users' usage pages by about a minute (issue 41)", async () => {
    const admin = await makeAdmin();
    const b = new Browser();
    await b.get("/portal/login");
    await b.post("/portal/login", { email: admin.data.email, password: "correct horse" });
    expect(await (await b.get("/portal/admin", { "accept-language": "en" })).text()).toContain("about a minute behind");
  });

  it("GET /billing/invoices (paged) and /billing/invoices/:id answer the owner's invoices only", async () => {
    const a = await verifiedDeveloper();
    const other = await verifiedDeveloper();
    const now = Date.now();
    for (let i = 0; i < 3; i++) {
      await env.DB.prepare(
        "INSERT INTO invoices (id, user_id, kind, credits, amount, reference, status, qr_string, expires_at, created_at) VALUES (?, ?, 'topup', 10000, 20000, ?, 'UNPAID', 'SANDBOX MODE', ?, ?)",
      )
        .bind(`inv_test${i}${a.data.id.slice(-6)}`, a.data.id, `REF${i}${a.data.id}`, now + 1800_000, now + i)
        .run();
    }
    const list = await json(await call("/billing/invoices?per_page=2", { token: a.token }));
    expect(list.meta).toEqual({ total: 3, page: 1, per_page: 2, total_pages: 2 });
    expect(list.data[0].id).toBe(`inv_test2${a.data.id.slice(-6)}`);
    expect(list.data[0].qr_image).toMatch(/^data:image\/svg\+xml;base64,/);
    const one = await call(`/billing/invoices/inv_test0${a.data.id.slice(-6)}`, { token: a.token });
    expect((await json(one)).data).toMatchObject({ status: "UNPAID", amount: 20000, credits: 10000 });
    await expectError(await call(`/billing/invoices/inv_test0${a.data.id.slice(-6)}`, { token: other.token }), 404, "NOT_FOUND");
    expect((await json(await call("/billing/invoices", { token: other.token }))).meta.total).toBe(0);
    await expectError(await call("/billing/invoices?page=0", { token: a.token }), 400, "INVALID_QUERY");
    // The portal's pages and the status its payment page polls: the owner's invoices only, too.
    const owner = new Browser();
    await owner.get("/portal/login");
    await owner.post("/portal/login", { email: a.data.email, password: "correct horse" });
    const status = await owner.get(`/portal/billing/invoices/inv_test0${a.data.id.slice(-6)}/status`, { accept: "application/json" });
    expect(await status.json()).toMatchObject({ invoice: { status: "UNPAID", amount: 20000 }, balance: 0 });
    const stranger = new Browser();
    await stranger.get("/portal/login");
    await stranger.post("/portal/login", { email: other.data.email, password: "correct horse" });
    expect((await stranger.get(`/portal/billing/invoices/inv_test0${a.data.id.slice(-6)}/status`, { accept: "application/json" })).status).toBe(404);
    expect((await stranger.get(`/portal/billing/invoices/inv_test0${a.data.id.slice(-6)}`)).status).toBe(404);
    expect((await new Browser().get(`/portal/billing/invoices/inv_test0${a.data.id.slice(-6)}/status`, { accept: "application/json" })).status).toBe(401);
    await expectError(await call("/billing/invoices"), 401, "MISSING_TOKEN");
  });

  it("billing page shows plans, balance and the payment-not-configured error in words", async () => {
    const dev = await verifiedDeveloper();
    const b = new Browser();
    await b.get("/portal/login", { "accept-language": "en" });
    await b.post("/portal/login", { email: dev.data.email, password: "correct horse" });
    const html = await (await b.get("/portal/billing")).text();
    expect(html).toContain("Starter");
    expect(html).toContain('data-testid="balance"');
    const res = await b.post("/portal/billing/topup", { amount: "20000" });
    expect(res.status).toBe(503);
  });
});

describe("admin pages", () => {
  it("non-admins get 403; admins see stats and users and can suspend (the user's key stops)", async () => {
    const user = await verifiedDeveloper();
    const key = await createKey(user.token);
    const nb = new Browser();
    await nb.get("/portal/login");
    await nb.post("/portal/login", { email: user.data.email, password: "correct horse" });
    expect((await nb.get("/portal/admin")).status).toBe(403);

    const admin = await makeAdmin();
    const b = new Browser();
    await b.get("/portal/login");
    await b.post("/portal/login", { email: admin.data.email, password: "correct horse" });
    const list = await (await b.get(`/portal/admin?q=${encodeURIComponent(user.data.email)}`)).text();
    expect(list).toContain(user.data.email);
    expect(list).not.toContain(`${admin.data.email}</a>`);
    // Paging: 20 a page, through the admin service's own paging.
    for (let i = 0; i < 21; i++) await register();
    const first = await (await b.get("/portal/admin")).text();
    expect(first).toMatch(/href="\/portal\/admin\?page=2"/);
    const second = await b.get("/portal/admin?page=2");
    expect(second.status).toBe(200);
    expect(await second.text()).toMatch(/href="\/portal\/admin\?page=1"/);
    await b.get(`/portal/admin/users/${user.data.id}`);
    let res = await b.post(`/portal/admin/users/${user.data.id}/credits`, { amount: "500", reason: "welcome gift" });
    expect(res.status).toBe(303);
    expect((await json(await call("/billing/credits", { token: user.token }))).data.balance).toBe(500);
    res = await b.post(`/portal/admin/users/${user.data.id}/subscription`, { plan_id: "starter", months: "1" });
    expect(res.status).toBe(303);
    res = await b.post(`/portal/admin/users/${user.data.id}/status`, { status: "suspended" });
    expect(res.status).toBe(303);
    await expectError(await call("/api/v1/wilayah/provinsi/32", { key: key.key }), 403, "ACCOUNT_SUSPENDED");
    expect(await (await b.get(`/portal/admin/users/${user.data.id}`)).text()).toContain("suspended");
  });
});

it("register helper still works beside the portal", async () => {
  expect((await register()).token).toBeTruthy();
});
