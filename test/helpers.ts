import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { displayParts, generateKeySecret, hashKeySecret } from "../src/keys/secret";
import { forgetUserKeys } from "../src/keys/service";
import { newId } from "../src/lib/crypto";
import { parseCsvRows } from "../src/lib/csv";

export const BASE = "https://api.wilayah.test";

type CallInit = RequestInit & { key?: string; token?: string; json?: unknown; ip?: string };

let ipCounter = 0;
/** A different client IP per call unless given, so per-IP throttles only bite where a test means them to. */
const nextIp = () => `198.51.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

export function call(path: string, init: CallInit = {}): Promise<Response> {
  const { key, token, json: body, ip, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key) headers.set("x-api-key", key);
  if (token) headers.set("authorization", `Bearer ${token}`);
  headers.set("cf-connecting-ip", ip ?? nextIp());
  if (body !== undefined) headers.set("content-type", "application/json");
  return exports.default.fetch(new Request(`${BASE}${path}`, { ...rest, headers, body: body !== undefined ? JSON.stringify(body) : rest.body }));
}

export const uniqueEmail = () => `dev-${crypto.randomUUID().slice(0, 12)}@example.test`;

export async function register(opts: { email?: string; password?: string; name?: string } = {}) {
  const res = await call("/auth/register", {
    method: "POST",
    json: { email: opts.email ?? uniqueEmail(), password: opts.password ?? "correct horse", name: opts.name ?? "Dev" },
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return json<{ data: { id: string; email: string; email_verified: boolean }; email_verification_sent: boolean; token: string }>(res);
}

export const login = (email: string, password: string, ip?: string) => call("/auth/login", { method: "POST", json: { email, password }, ip });

/** The last verification link the console mailer printed. */
export function verifyLinkFrom(log: { mock: { calls: unknown[][] } }): URL {
  const text = log.mock.calls.flat().map(String).join("\n");
  const links = [...text.matchAll(/https?:\/\/\S+\/auth\/verify-email\?token=\S+/g)];
  if (!links.length) throw new Error("no verification link was printed");
  return new URL(links.at(-1)![0]);
}

/**
 * Waits (up to 3 s) until the console mailer has printed `count` messages matching `pattern`: some
 * mails (password resets) are sent after the answer, in the request's background work.
 */
export async function printed(log: { mock: { calls: unknown[][] } }, pattern: RegExp, count = 1): Promise<string[]> {
  const re = new RegExp(pattern.source, "g");
  for (let i = 0; ; i++) {
    const found = [...log.mock.calls.flat().map(String).join("\n").matchAll(re)].map((m) => m[0]);
    if (found.length >= count || i >= 60) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A registered, email-verified developer with a session token (verified through the emailed link). */
export async function verifiedDeveloper() {
  const { vi } = await import("vitest");
  const log = vi.spyOn(console, "log");
  const r = await register();
  const link = verifyLinkFrom(log);
  log.mockRestore();
  const res = await call(link.pathname + link.search, { redirect: "manual" });
  if (res.headers.get("location")?.endsWith("verified=1") !== true)
    throw new Error(`verification failed: ${res.status} ${res.headers.get("location")} ${await res.text()}`);
  return r;
}

export async function createKey(token: string, name = "test key"): Promise<{ id: string; key: string }> {
  const res = await call("/user/keys", { method: "POST", token, json: { name } });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${await res.text()}`);
  return (await json(res)).data;
}

/** One MCP `tools/call` with an API key, as a 2025-era client sends it over plain JSON-RPC; its result. */
export async function mcpTool(key: string, name: string, args: Record<string, unknown>) {
  const res = await exports.default.fetch(
    new Request(`${BASE}/mcp`, {
      method: "POST",
      headers: {
        host: new URL(BASE).host,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        "x-api-key": key,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    }),
  );
  return (await json(res)).result as { isError?: boolean; structuredContent: any };
}

export async function json<T = any>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** A user with one key, written straight to D1 (the dev command does the same); on the unlimited internal plan unless told. */
export async function seedUserWithKey(opts: { status?: "active" | "suspended"; plan?: string } = {}) {
  const userId = newId("user");
  await env.DB.prepare("INSERT INTO users (id, email, name, password_hash, email_verified, status, plan, created_at) VALUES (?, ?, 'T', '!', 1, ?, ?, ?)")
    .bind(userId, `${userId}@example.test`, opts.status ?? "active", opts.plan ?? "internal", Date.now())
    .run();
  const secret = generateKeySecret();
  const keyId = newId("key");
  const { prefix, last4 } = displayParts(secret);
  await env.DB.prepare("INSERT INTO api_keys (id, user_id, name, prefix, last4, key_hash, created_at) VALUES (?, ?, 't', ?, ?, ?, ?)")
    .bind(keyId, userId, prefix, last4, await hashKeySecret(secret), Date.now())
    .run();
  return { userId, keyId, secret };
}

export async function expectError(res: Response, status: number, code: string) {
  const body = await json(res);
  if (res.status !== status || body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(body)}`);
  }
  if (!body.error.request_id || body.error.request_id !== res.headers.get("x-request-id")) throw new Error("error body lacks the request id");
  return body.error as { code: string; message: string; details?: { path: string; message: string }[] };
}

/** Puts a user on a plan directly in D1 (before their keys are first used, so no cached lookup is stale). */
/** The plan written to D1, and the user's keys' cached lookups dropped, as the real plan changes do. */
export async function setPlan(userId: string, plan: string) {
  await env.DB.prepare("UPDATE users SET plan = ? WHERE id = ?").bind(plan, userId).run();
  await forgetUserKeys(env, userId);
  // The account object reads its plan again (as accountChanged makes it do): the gate may have asked it already.
  await (env.ACCOUNT.get(env.ACCOUNT.idFromName(userId)) as unknown as { refresh(): Promise<void> }).refresh();
}

export async function usageOf(token: string, month?: string) {
  const res = await call(`/user/usage${month ? `?month=${month}` : ""}`, { token });
  expect(res.status).toBe(200);
  return (await json(res)).data;
}

/** Counts of other isolates arrive when their leases settle (about a second): wait until the expected total shows. */
export async function waitForTotal(token: string, total: number) {
  for (let i = 0; i < 100; i++) {
    const u = await usageOf(token);
    if (u.total >= total) return u;
    await new Promise((r) => setTimeout(r, 50));
  }
  return usageOf(token);
}

export async function makeAdmin() {
  const dev = await verifiedDeveloper();
  await env.DB.prepare("UPDATE users SET is_admin = 1 WHERE id = ?").bind(dev.data.id).run();
  return dev;
}

/** The routes an app registers under a path prefix (method and path pattern), for route-matrix tests. */
export function routesUnder(app: { routes: { method: string; path: string }[] }, prefix: string) {
  const seen = new Set<string>();
  return app.routes
    .filter((r) => r.method !== "ALL" && r.path.startsWith(prefix))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`))
    .map((r) => ({ method: r.method, path: r.path }));
}

/** RFC 4180, as the bulk exports and the mapping files write it (CRLF lines): quoted fields may hold commas, quotes (doubled) and line breaks. */
export const parseCsv = (text: string): string[][] => parseCsvRows(text, { crlf: true });

/**
 * Waits for the next wall-clock minute when less than `needSeconds` of this one are left. The local
 * rate limiters count in windows aligned to the clock (miniflare's ratelimit object), so a test that
 * counts calls up to a per-minute limit fails when a window ends in the middle of its calls (as it
 * did on a loaded machine: 31 calls served of a limit of 30).
 * The wait can be up to `needSeconds`, so a test that calls this needs a timeout of at least
 * `MINUTE_WINDOW_TIMEOUT_MS` (CI's run of 5b01fd9 timed out at the worker project's default 30 s).
 */
export const MINUTE_WINDOW_TIMEOUT_MS = 100_000;
export async function freshMinuteWindow(needSeconds = 30): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needSeconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}
