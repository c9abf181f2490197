import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, createKey, json, login, register, uniqueEmail, verifiedDeveloper, verifyLinkFrom } from "../helpers";

const CLIENTS = {
  GOOGLE_CLIENT_ID: "g-client.apps.googleusercontent.com",
  GOOGLE_CLIENT_SECRET: "g-secret",
  GITHUB_CLIENT_ID: "gh-client",
  GITHUB_CLIENT_SECRET: "gh-secret",
};
const original = { GOOGLE_CLIENT_ID: env.GOOGLE_CLIENT_ID, GITHUB_CLIENT_ID: env.GITHUB_CLIENT_ID };

beforeEach(() => Object.assign(env, CLIENTS));
afterEach(() => {
  vi.restoreAllMocks();
  Object.assign(env, original);
  delete (env as any).GOOGLE_CLIENT_SECRET;
  delete (env as any).GITHUB_CLIENT_SECRET;
});

// UTF-8 first, as a JWT's JSON is encoded (btoa alone takes Latin-1 only).
const b64url = (o: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(o))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** An id_token as Google's token endpoint returns it (the signature is not checked: it came over TLS from the token endpoint, OIDC Core 3.1.3.7). */
function idToken(claims: Record<string, unknown>) {
  const now = Math.floor(Date.now() / 1000);
  return `${b64url({ alg: "RS256", kid: "k1", typ: "JWT" })}.${b64url({ iss: "https://accounts.google.com", aud: CLIENTS.GOOGLE_CLIENT_ID, iat: now, exp: now + 3600, sub: "1234567890", ...claims })}.c2lnbmF0dXJl`;
}

/** Starts a sign-in: where the browser is sent, and the pending cookie it gets. */
async function start(provider: "google" | "github") {
  const res = await call(`/auth/oauth/${provider}`, { redirect: "manual" });
  expect(res.status).toBe(302);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("wl_oauth="))!;
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/Path=\/auth\/oauth/);
  return { url: new URL(res.headers.get("location")!), cookie: cookie.split(";")[0] };
}

function callback(provider: string, cookie: string, params: Record<string, string>) {
  return call(`/auth/oauth/${provider}/callback?${new URLSearchParams(params)}`, { redirect: "manual", headers: { cookie } });
}

type Answer = { token?: Response; emails?: unknown; user?: unknown };
/** The providers' token and user endpoints, intercepted; remembers the requests. */
function providers(answer: (body: URLSearchParams) => Answer) {
  const seen: { url: string; body: string }[] = [];
  let last: Answer = {};
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    const body = await req.clone().text();
    seen.push({ url: req.url, body });
    if (req.url === env.GOOGLE_TOKEN_URL || req.url === env.GITHUB_TOKEN_URL) {
      last = answer(new URLSearchParams(body));
      return last.token!;
    }
    if (req.url === `${env.GITHUB_API_URL}/user/emails`) return Response.json(last.emails ?? []);
    if (req.url === `${env.GITHUB_API_URL}/user`) return Response.json(last.user ?? { login: "octo" });
    throw new Error(`unexpected fetch ${req.url}`);
  });
  return { spy, seen, tokenCalls: () => seen.filter((s) => s.url.includes("token")).length };
}

const sessionFrom = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith("__Host-wl_session="))
    ?.split(";")[0]
    .slice("__Host-wl_session=".length);

function google(claims: (nonce: string) => Record<string, unknown>, nonceOf: () => string) {
  return providers((body) => {
    expect(body.get("grant_type")).toBe("authorization_code");
    expect(body.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    return { token: Response.json({ access_token: "ya29.x", token_type: "Bearer", expires_in: 3599, id_token: idToken(claims(nonceOf())) }) };
  });
}

describe("Google sign-in (OIDC, PKCE, nonce, verified email)", () => {
  it("the start sends the browser to Google with state, PKCE S256 and a nonce; disabled providers are 404", async () => {
    const { url } = await start("google");
    expect(url.origin + url.pathname).toBe(env.GOOGLE_AUTHORIZATION_URL);
    expect(url.searchParams.get("client_id")).toBe(CLIENTS.GOOGLE_CLIENT_ID);
    expect(url.searchParams.get("redirect_uri")).toBe("https://api.wilayah.test/auth/oauth/google/callback");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("scope")).toBe("openid email profile");
    delete (env as any).GITHUB_CLIENT_SECRET;
    expect((await call("/auth/oauth/github", { redirect: "manual" })).status).toBe(404);
    expect((await call("/auth/oauth/facebook", { redirect: "manual" })).status).toBe(404);
  });

  it("a new user: created with email_verified true, signed in with the same session token as a password login", async () => {
    const email = uniqueEmail();
    const { url, cookie } = await start("google");
    const p = google(
      (nonce) => ({ email, email_verified: true, name: "Gita", nonce }),
      () => url.searchParams.get("nonce")!,
    );
    const res = await callback("google", cookie, { code: "4/code-1", state: url.searchParams.get("state")! });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/portal/keys");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("wl_oauth=;") || /wl_oauth=.*Max-Age=0/i.test(c))).toBe(true);
    const token = sessionFrom(res)!;
    p.spy.mockRestore();
    const me = (await json(await call("/auth/me", { token }))).data;
    expect(me).toMatchObject({ email, name: "Gita", email_verified: true });
    // No password was set: a password login with anything fails.
    expect((await login(email, "anything at all")).status).toBe(401);
  });

  it("a profile name follows the display-name rules: control and direction characters gone, at most 100 characters (as sign-up counts them), else the email's name", async () => {
    for (const [name, expected] of [
      ["Gita\u202Egpj.exe\u0000\nAdmin", "Gita gpj.exe Admin"],
      ["😀".repeat(150), "😀".repeat(50)], // 100 UTF-16 units, as the sign-up form counts
      [`${"a".repeat(99)}😀`, "a".repeat(99)], // never half a character
      ["\u202E\u2066 \t", null],
    ] as const) {
      const email = uniqueEmail();
      const { url, cookie } = await start("google");
      const p = google(
        (nonce) => ({ email, email_verified: true, name, nonce }),
        () => url.searchParams.get("nonce")!,
      );
      const res = await callback("google", cookie, { code: "4/code-names", state: url.searchParams.get("state")! });
      p.spy.mockRestore();
      expect(res.status).toBe(303);
      const me = (await json(await call("/auth/me", { token: sessionFrom(res)! }))).data;
      expect(me.name).toBe(expected ?? email.split("@")[0]);
    }
  });

  it("an existing user with that email is signed in (same account)", async () => {
    const dev = await verifiedDeveloper();
    // The owner proved the email (the link opened in their own session): nothing to take over.
    await env.DB.prepare("UPDATE users SET owner_proven = 1 WHERE id = ?").bind(dev.data.id).run();
    const { url, cookie } = await start("google");
    google(
      (nonce) => ({ email: dev.data.email.toUpperCase(), email_verified: true, nonce }),
      () => url.searchParams.get("nonce")!,
    );
    const res = await callback("google", cookie, { code: "4/code-2", state: url.searchParams.get("state")! });
    vi.restoreAllMocks();
    expect((await json(await call("/auth/me", { token: sessionFrom(res)! }))).data.id).toBe(dev.data.id);
    expect((await login(dev.data.email, "correct horse")).status).toBe(200);
  });

  it("an account registered but never verified is claimed: verified, and its password stops working", async () => {
    const squatter = await register({ password: "squatter pass" });
    const { url, cookie } = await start("google");
    google(
      (nonce) => ({ email: squatter.data.email, email_verified: true, nonce }),
      () => url.searchParams.get("nonce")!,
    );
    const res = await callback("google", cookie, { code: "4/code-3", state: url.searchParams.get("state")! });
    vi.restoreAllMocks();
    expect((await json(await call("/auth/me", { token: sessionFrom(res)! }))).data).toMatchObject({ id: squatter.data.id, email_verified: true });
    expect((await login(squatter.data.email, "squatter pass")).status).toBe(401);
  });

  it("claiming a pre-registered account ends the squatter's sessions and keys and tells the new owner", async () => {
    const squatter = await register({ password: "squatter pass" });
    await env.DB.prepare("INSERT INTO api_keys (id, user_id, name, prefix, last4, key_hash, created_at) VALUES (?, ?, 'sq', 'wk_live_sq', 'sq00', ?, ?)")
      .bind(`key_sq${squatter.data.id.slice(-8)}`, squatter.data.id, `hash-${squatter.data.id}`, Date.now())
      .run();
    const { url, cookie } = await start("google");
    google(
      (nonce) => ({ email: squatter.data.email, email_verified: true, nonce }),
      () => url.searchParams.get("nonce")!,
    );
    const res = await callback("google", cookie, { code: "4/code-claim", state: url.searchParams.get("state")! });
    vi.restoreAllMocks();
    expect(res.headers.get("location")).toBe("/portal/keys?msg=account_claimed");
    expect((await call("/auth/me", { token: squatter.token })).status).toBe(401);
    expect((await call("/auth/me", { token: sessionFrom(res)! })).status).toBe(200);
    const key = await env.DB.prepare("SELECT revoked_at FROM api_keys WHERE user_id = ?").bind(squatter.data.id).first<{ revoked_at: number | null }>();
    expect(key!.revoked_at).toEqual(expect.any(Number));
    const page = await call("/portal/keys?msg=account_claimed", { headers: { cookie: `__Host-wl_session=${sessionFrom(res)}`, "accept-language": "en" } });
    expect(await page.text()).toContain("registered with your email before you proved it");
  });

  it("an account verified by a link opened elsewhere (owner never proven) is claimed: the squatter's password, sessions and keys end", async () => {
    const log = vi.spyOn(console, "log");
    const squatter = await register({ password: "squatter pass" });
    const link = verifyLinkFrom(log);
    log.mockRestore();
    // The real owner opens the link that arrived unasked (no session of this account in that browser).
    await call(link.pathname + link.search, { redirect: "manual" });
    const key = await createKey(squatter.token); // possible now: the account is verified
    expect((await call("/api/v1/wilayah/provinsi/32", { key: key.key })).status).toBe(200);
    const { url, cookie } = await start("google");
    google(
      (nonce) => ({ email: squatter.data.email, email_verified: true, nonce }),
      () => url.searchParams.get("nonce")!,
    );
    const res = await callback("google", cookie, { code: "4/code-proven", state: url.searchParams.get("state")! });
    vi.restoreAllMocks();
    expect(res.headers.get("location")).toBe("/portal/keys?msg=account_claimed");
    expect((await json(await call("/auth/me", { token: sessionFrom(res)! }))).data).toMatchObject({ id: squatter.data.id, email_verified: true });
    expect((await call("/auth/me", { token: squatter.token })).status).toBe(401);
    expect((await call("/api/v1/wilayah/provinsi/32", { key: key.key })).status).toBe(401);
    expect((await login(squatter.data.email, "squatter pass")).status).toBe(401);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM audit_events WHERE event = 'account_takeover' AND subject_id = ?")
      .bind(squatter.data.id)
      .first<{ n: number }>();
    expect(events!.n).toBe(1);
    // The owner is proven now: a second sign-in claims nothing.
    const again = await start("google");
    google(
      (nonce) => ({ email: squatter.data.email, email_verified: true, nonce }),
      () => again.url.searchParams.get("nonce")!,
    );
    const second = await callback("google", again.cookie, { code: "4/code-proven-2", state: again.url.searchParams.get("state")! });
    vi.restoreAllMocks();
    expect(second.headers.get("location")).toBe("/portal/keys");
    expect((await call("/auth/me", { token: sessionFrom(res)! })).status).toBe(200);
  });

  it("an unverified email never signs in nor takes over an account", async () => {
    const dev = await verifiedDeveloper();
    const { url, cookie } = await start("google");
    google(
      (nonce) => ({ email: dev.data.email, email_verified: false, nonce }),
      () => url.searchParams.get("nonce")!,
    );
    const res = await callback("google", cookie, { code: "4/code-4", state: url.searchParams.get("state")! });
    expect(res.headers.get("location")).toBe("/portal/login?oauth_error=unverified_email");
    expect(sessionFrom(res)).toBeUndefined();
    vi.restoreAllMocks();
    const page = await (await call("/portal/login?oauth_error=unverified_email", { headers: { "accept-language": "en" } })).text();
    expect(page).toContain("did not confirm that this email address is verified");
  });

  it("an id_token for another client or with another nonce is refused", async () => {
    for (const bad of [{ aud: "someone-else" }, { nonce: "not-the-nonce" }, { iss: "https://evil.example" }]) {
      const { url, cookie } = await start("google");
      google(
        (nonce) => ({ email: uniqueEmail(), email_verified: true, nonce, ...bad }),
        () => url.searchParams.get("nonce")!,
      );
      const res = await callback("google", cookie, { code: "4/code-5", state: url.searchParams.get("state")! });
      expect(res.headers.get("location")).toBe("/portal/login?oauth_error=provider");
      expect(sessionFrom(res)).toBeUndefined();
      vi.restoreAllMocks();
    }
  });
});

describe("GitHub sign-in (PKCE, primary verified email)", () => {
  it("signs in with the primary verified email; the token request carries the code_verifier", async () => {
    const email = uniqueEmail();
    const { url, cookie } = await start("github");
    expect(url.origin + url.pathname).toBe(env.GITHUB_AUTHORIZATION_URL);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    const p = providers((body) => {
      expect(body.get("code_verifier")).toBeTruthy();
      expect(body.get("client_secret")).toBe(CLIENTS.GITHUB_CLIENT_SECRET);
      return {
        token: Response.json({ access_token: "gho_x", token_type: "bearer", scope: "read:user,user:email" }),
        emails: [
          { email: "old@example.test", primary: false, verified: true },
          { email, primary: true, verified: true },
        ],
        user: { login: "octocat", name: "The Octocat" },
      };
    });
    const res = await callback("github", cookie, { code: "gh-code-1", state: url.searchParams.get("state")! });
    expect(res.headers.get("location")).toBe("/portal/keys");
    expect(p.seen.find((s) => s.url.endsWith("/user/emails"))).toBeTruthy();
    vi.restoreAllMocks();
    expect((await json(await call("/auth/me", { token: sessionFrom(res)! }))).data).toMatchObject({ email, name: "The Octocat", email_verified: true });
  });

  it("a primary email GitHub has not verified is refused", async () => {
    const email = uniqueEmail();
    const { url, cookie } = await start("github");
    providers(() => ({ token: Response.json({ access_token: "gho_y", token_type: "bearer" }), emails: [{ email, primary: true, verified: false }] }));
    const res = await callback("github", cookie, { code: "gh-code-2", state: url.searchParams.get("state")! });
    expect(res.headers.get("location")).toBe("/portal/login?oauth_error=unverified_email");
    vi.restoreAllMocks();
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first()).toBeNull();
  });
});

describe("callback failures", () => {
  it("wrong state: refused before any call to the provider", async () => {
    const { cookie } = await start("google");
    const p = providers(() => ({ token: Response.json({}) }));
    const res = await callback("google", cookie, { code: "4/x", state: "not-the-state" });
    expect(res.headers.get("location")).toBe("/portal/login?oauth_error=state");
    expect(p.tokenCalls()).toBe(0);
  });

  it("no pending cookie, or one for the other provider: refused", async () => {
    const { url, cookie } = await start("github");
    const p = providers(() => ({ token: Response.json({}) }));
    expect((await callback("google", cookie, { code: "c", state: url.searchParams.get("state")! })).headers.get("location")).toBe(
      "/portal/login?oauth_error=state",
    );
    expect((await callback("github", "", { code: "c", state: url.searchParams.get("state")! })).headers.get("location")).toBe(
      "/portal/login?oauth_error=state",
    );
    expect((await callback("github", cookie.replace(/.$/, "x"), { code: "c", state: url.searchParams.get("state")! })).headers.get("location")).toBe(
      "/portal/login?oauth_error=state",
    );
    expect(p.tokenCalls()).toBe(0);
  });

  it("provider error at the token endpoint: a message, no session", async () => {
    const { url, cookie } = await start("google");
    providers(() => ({ token: Response.json({ error: "invalid_grant", error_description: "Bad Request" }, { status: 400 }) }));
    const res = await callback("google", cookie, { code: "4/bad", state: url.searchParams.get("state")! });
    expect(res.headers.get("location")).toBe("/portal/login?oauth_error=provider");
    expect(sessionFrom(res)).toBeUndefined();
  });

  it("a replayed callback (the same code and state twice) signs in once", async () => {
    const email = uniqueEmail();
    const { url, cookie } = await start("google");
    const p = google(
      (nonce) => ({ email, email_verified: true, nonce }),
      () => url.searchParams.get("nonce")!,
    );
    const params = { code: "4/once", state: url.searchParams.get("state")! };
    const first = await callback("google", cookie, params);
    expect(sessionFrom(first)).toBeTruthy();
    const second = await callback("google", cookie, params);
    expect(second.headers.get("location")).toBe("/portal/login?oauth_error=state");
    expect(sessionFrom(second)).toBeUndefined();
    expect(p.tokenCalls()).toBe(1);
  });

  it("declined consent (?error=access_denied) shows a message and does not loop back to the provider", async () => {
    const { url, cookie } = await start("google");
    const p = providers(() => ({ token: Response.json({}) }));
    const res = await callback("google", cookie, { error: "access_denied", state: url.searchParams.get("state")! });
    expect(res.headers.get("location")).toBe("/portal/login?oauth_error=access_denied");
    expect(p.tokenCalls()).toBe(0);
    const page = await call("/portal/login?oauth_error=access_denied", { headers: { "accept-language": "en" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Sign-in was cancelled");
  });

  it("the portal shows the buttons only when a provider is configured", async () => {
    expect(await (await call("/portal/login")).text()).toContain('href="/auth/oauth/google"');
    delete (env as any).GOOGLE_CLIENT_SECRET;
    delete (env as any).GITHUB_CLIENT_SECRET;
    const html = await (await call("/portal/login")).text();
    expect(html).not.toContain("/auth/oauth/");
  });
});
