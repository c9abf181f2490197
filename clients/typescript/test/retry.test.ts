/**
 * The retry policy against a stand-in server on loopback (real fetch, real sockets): which answers
 * are retried, how long the client waits, when it gives up, and what ApiError carries.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createKey, createWilayahClient, getProvinsi, parseRetryAfter, retryingFetch } from "../src/index.js";

type Scripted = { status: number; headers?: Record<string, string>; body?: unknown };
let script: Scripted[] = [];
let seen: { method: string; url: string; apiKey: string | undefined; body: string }[] = [];
let base = "";
const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  seen.push({ method: req.method!, url: req.url!, apiKey: req.headers["x-api-key"] as string | undefined, body });
  const next = script.shift() ?? { status: 200, body: { data: { id: "32" } } };
  res.writeHead(next.status, { "content-type": "application/json", "x-request-id": `req-${seen.length}`, ...next.headers });
  res.end(JSON.stringify(next.body ?? {}));
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const waits: number[] = [];
const instantSleep = async (ms: number) => {
  waits.push(ms);
};
function client(retry: Parameters<typeof retryingFetch>[1] = {}) {
  script = [];
  seen = [];
  waits.length = 0;
  return createWilayahClient({ baseUrl: base, apiKey: "wk_live_test", retry: { sleep: instantSleep, random: () => 1, ...retry } });
}
const errorBody = (code: string, requestId = "req-x") => ({ error: { code, message: `${code} happened`, request_id: requestId } });

describe("retries", () => {
  it("waits Retry-After on 429, then succeeds", async () => {
    const c = client();
    script = [{ status: 429, headers: { "retry-after": "2" }, body: errorBody("RATE_LIMITED") }];
    const { data } = await getProvinsi({ client: c, path: { id: "32" } });
    expect(data).toEqual({ data: { id: "32" } });
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s.apiKey === "wk_live_test")).toBe(true);
    expect(waits).toEqual([2000]);
  });

  it("backs off exponentially on 5xx for GET, bounded by maxRetries", async () => {
    const c = client({ maxRetries: 3, baseDelayMs: 100 });
    script = [500, 502, 503, 504].map((status) => ({ status, body: errorBody(status === 500 ? "INTERNAL_ERROR" : "UPSTREAM_ERROR") }));
    const err = await getProvinsi({ client: c, path: { id: "32" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(504);
    expect(seen).toHaveLength(4); // first try + 3 retries
    expect(waits).toEqual([100, 200, 400]); // random() = 1: the top of each jitter window
  });

  it("never resends a POST after a 5xx, but does after a 429", async () => {
    const c = client();
    script = [{ status: 503, body: errorBody("PAYMENT_NOT_CONFIGURED") }];
    const err = await createKey({ client: c, body: { name: "x" } }).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe("PAYMENT_NOT_CONFIGURED");
    expect(seen).toHaveLength(1);

    const c2 = client();
    script = [
      { status: 429, headers: { "retry-after": "1" }, body: errorBody("RATE_LIMITED") },
      { status: 201, body: { data: { key: "k" } } },
    ];
    const { data } = await createKey({ client: c2, body: { name: "x" } });
    expect(data).toEqual({ data: { key: "k" } });
    expect(seen.map((s) => s.body)).toEqual(['{"name":"x"}', '{"name":"x"}']); // the body is sent again whole
  });

  it("gives up at once when Retry-After is longer than maxRetryAfterMs", async () => {
    const c = client({ maxRetryAfterMs: 5_000 });
    script = [{ status: 429, headers: { "retry-after": "60" }, body: errorBody("RATE_LIMITED", "req-rl") }];
    const err = (await getProvinsi({ client: c, path: { id: "32" } }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect({ status: err.status, code: err.code, requestId: err.requestId, retryAfter: err.retryAfter }).toEqual({
      status: 429,
      code: "RATE_LIMITED",
      requestId: "req-rl",
      retryAfter: 60,
    });
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("does not retry other 4xx", async () => {
    const c = client();
    script = [{ status: 404, body: errorBody("NOT_FOUND", "req-404") }];
    const err = (await getProvinsi({ client: c, path: { id: "99" } }).catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.code, err.requestId, err.message]).toEqual([404, "NOT_FOUND", "req-404", "NOT_FOUND happened"]);
    expect(seen).toHaveLength(1);
  });

  it("retry: false sends once", async () => {
    script = [{ status: 503, body: errorBody("UPSTREAM_ERROR") }];
    seen = [];
    const c = createWilayahClient({ baseUrl: base, apiKey: "k", retry: false });
    await expect(getProvinsi({ client: c, path: { id: "32" } })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
  });

  it("an error answer that is not the contract's body still becomes an ApiError (request id from the header)", async () => {
    const c = client({ maxRetries: 0 });
    script = [{ status: 502, body: "bad gateway" }];
    const err = (await getProvinsi({ client: c, path: { id: "32" } }).catch((e: unknown) => e)) as ApiError;
    expect([err.status, err.code, err.requestId]).toEqual([502, "HTTP_502", "req-1"]);
  });

  it("retries network failures of idempotent calls, then throws what fetch threw", async () => {
    let calls = 0;
    const failing: typeof fetch = async () => {
      calls++;
      throw new TypeError("fetch failed");
    };
    const f = retryingFetch(failing, { maxRetries: 2, sleep: instantSleep });
    await expect(f("http://127.0.0.1:9/x")).rejects.toThrow("fetch failed");
    expect(calls).toBe(3);
  });

  it("an abort during the wait stops retrying", async () => {
    const c = createWilayahClient({ baseUrl: base, apiKey: "k", retry: { baseDelayMs: 10_000 } });
    script = [{ status: 503, body: errorBody("UPSTREAM_ERROR") }];
    seen = [];
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 50);
    const t0 = Date.now();
    await expect(getProvinsi({ client: c, path: { id: "32" }, signal: controller.signal })).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(seen).toHaveLength(1);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("60")).toBe(60_000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(10_000);
    expect(parseRetryAfter("soon")).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});
