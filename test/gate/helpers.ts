/** Shared by the gate's tests: the site map's token as a visitor gets it, a body that counts what was read of it, a spent account. */
import { env } from "cloudflare:workers";
import { BASE, call, freshMinuteWindow } from "../helpers";

/** The token the /map page carries for a visitor at `ip` (as map.js reads it from the page). */
export async function mapTokenFor(ip: string): Promise<string> {
  const page = await (await call("/map", { ip })).text();
  const labels = /data-labels="([^"]+)"/.exec(page)?.[1];
  if (!labels) throw new Error("no map labels on /map");
  const token = JSON.parse(labels.replaceAll("&quot;", '"').replaceAll("&amp;", "&")).token as string;
  if (!token) throw new Error("no token on /map");
  return token;
}

/** A tile request as the site's map sends it from a page of this site. */
export const mapTile = (path: string, token: string, ip: string, headers: Record<string, string> = {}) =>
  call(path, { ip, headers: { "x-map-token": token, referer: `${BASE}/map`, ...headers } });

/** A body of `bytes` bytes (`chunk` at a time, made as it is read) and how much of it was read. */
export function countedBody(bytes: number, chunk = 64 * 1024, fill = (i: number) => new Uint8Array(Math.min(chunk, bytes - i)).fill(0x61)) {
  const seen = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= bytes) {
        controller.close();
        return;
      }
      const piece = fill(seen.pulled);
      seen.pulled += piece.length;
      controller.enqueue(piece);
    },
  });
  return { body, seen };
}

/** Uses up an account's monthly quota, as its account object counts it (the free plan's 1,000 calls). */
export async function spendQuota(userId: string): Promise<void> {
  const quota = (
    await env.DB.prepare("SELECT p.monthly_quota AS q FROM users u JOIN plans p ON p.id = u.plan WHERE u.id = ?").bind(userId).first<{ q: number }>()
  )?.q;
  if (!quota) throw new Error("no quota to spend");
  const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(userId));
  const admitted = await (stub as unknown as { admit(a: unknown): Promise<{ ok: boolean }> }).admit({
    keyId: "filler",
    endpoint: "/filler",
    calls: quota,
    ticket: crypto.randomUUID(),
    now: Date.now(),
  });
  if (!admitted.ok) throw new Error("could not spend the quota");
}

/**
 * Spends a rate-limit binding's window for `key` (as many times as its limit), so the next request
 * keyed so is 429. In a minute with at least 15 s left: the windows are the clock's minutes, and a
 * window that ended between the spending and the request let an upload through to its body on a
 * loaded CI run (400 for the file instead of 429).
 */
export async function spendRate(limiter: RateLimit, key: string, times: number): Promise<void> {
  await freshMinuteWindow(15);
  for (let i = 0; i < times; i++) await limiter.limit({ key });
}
