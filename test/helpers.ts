import { env, exports } from "cloudflare:workers";
import { displayParts, generateKeySecret, hashKeySecret, newId } from "../src/keys/secret";

export const BASE = "https://api.wilayah.test";

export function call(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("x-api-key", init.key);
  return exports.default.fetch(new Request(`${BASE}${path}`, { ...init, headers }));
}

export async function json<T = any>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** A user with one key, written straight to D1 (the dev command does the same). */
export async function seedUserWithKey(opts: { status?: "active" | "suspended" } = {}) {
  const userId = newId("user");
  await env.DB.prepare("INSERT INTO users (id, email, name, password_hash, email_verified, status, created_at) VALUES (?, ?, 'T', '!', 1, ?, ?)")
    .bind(userId, `${userId}@example.test`, opts.status ?? "active", Date.now())
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
