/**
 * Delivery: the queue's consumer driven directly with fake messages (what it acks or retries, with
 * which delay), receivers played by a stubbed fetch that verifies with standardwebhooks' own
 * Webhook.verify, and one end-to-end run through the real queue (POST /test).
 */
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "../../src/lib/crypto";
import { deliverMessage } from "../../src/webhooks/delivery";
import { insertDelivery } from "../../src/webhooks/queries";
import { MAX_ATTEMPTS, retryDelaySeconds, scheduleSpanSeconds } from "../../src/webhooks/schedule";
import { deadLetterStale, STALE_AFTER_MS } from "../../src/webhooks/service";
import { call, expectError, freshMinuteWindow, json, MINUTE_WINDOW_TIMEOUT_MS, printed, verifiedDeveloper } from "../helpers";
import { createHook, fakeMessage, type Received, receiver, waitFor } from "./helpers";

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
  vi.restoreAllMocks();
});

/** A receiver on its own host (so parallel tests never see each other's requests). */
function ownReceiver(answer?: Parameters<typeof receiver>[1]) {
  const host = `r-${crypto.randomUUID().slice(0, 8)}.receiver.test`;
  const r = receiver(host, answer);
  restore = r.restore;
  return { ...r, url: `https://${host}/hook` };
}

async function pendingDelivery(endpointId: string, type = "edition.published") {
  const id = newId("msg");
  const payload = JSON.stringify({ type, timestamp: new Date().toISOString(), data: { edition: "test", n: Math.random() } });
  await insertDelivery(drizzle(env.DB), { id, endpointId, eventType: type, eventKey: null, payload, status: "pending", createdAt: Date.now() });
  return { id, payload };
}

const deliveries = async (token: string, hookId: string) => (await json(await call(`/user/webhooks/${hookId}/deliveries`, { token }))).data;

const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers);

describe("the retry schedule", () => {
  it("is exponential, each delay within Queues' 12 h cap, and spans at least 24 hours", () => {
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelaySeconds(i + 1));
    expect(delays).toEqual([30, 120, 480, 1920, 7680, 30720, 43200, 43200]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(43_200);
    expect(scheduleSpanSeconds()).toBeGreaterThanOrEqual(24 * 3600);
  });
});

describe("delivering a message", () => {
  it("signs with the endpoint's secret (Standard Webhooks): the receiver's Webhook.verify accepts it; the attempt is logged", async () => {
    const r = ownReceiver();
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token, { url: r.url });
    const d = await pendingDelivery(hook.id);
    const m = fakeMessage({ delivery: d.id });
    await deliverMessage(env, m as never);
    expect(m.acked).toBe(true);
    expect(r.received).toHaveLength(1);
    const got = r.received[0];
    expect(got.headers["webhook-id"]).toBe(d.id);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.body).toBe(d.payload);
    expect(verify(hook.secret, got)).toEqual(JSON.parse(d.payload));
    // a wrong secret or a changed body is refused
    expect(() => new Webhook(`whsec_${btoa("x".repeat(24))}`).verify(got.body, got.headers)).toThrow();
    expect(() => verify(hook.secret, { ...got, body: got.body.replace("test", "tesT") })).toThrow();

    const [logged] = await deliveries(dev.token, hook.id);
    expect(logged).toMatchObject({ id: d.id, status: "delivered", attempts: 1, last_status_code: 200, last_error: null });
    expect(logged.attempt_log).toEqual([{ attempt: 1, at: expect.any(String), outcome: "ok", status_code: 200, error: null, latency_ms: expect.any(Number) }]);
  });

  it("a receiver answering 500 then 200: retried after the schedule's delay with the same webhook-id, then delivered", async () => {
    const r = ownReceiver((n) => new Response("no", { status: n === 0 ? 500 : 200 }));
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token, { url: r.url });
    const d = await pendingDelivery(hook.id);
    const first = fakeMessage({ delivery: d.id }, 1);
    await deliverMessage(env, first as never);
    expect(first.acked).toBe(false);
    expect(first.retried).toEqual({ delaySeconds: retryDelaySeconds(1) });
    let [logged] = await deliveries(dev.token, hook.id);
    expect(logged).toMatchObject({ status: "pending", attempts: 1, last_status_code: 500, last_error: "HTTP 500" });
    expect((await json(await call(`/user/webhooks/${hook.id}`, { token: dev.token }))).data.failing_since).toEqual(expect.any(String));

    const second = fakeMessage({ delivery: d.id }, 2);
    await deliverMessage(env, second as never);
    expect(second.acked).toBe(true);
    expect(r.received.map((x) => x.headers["webhook-id"])).toEqual([d.id, d.id]);
    for (const x of r.received) expect(verify(hook.secret, x)).toBeTruthy();
    [logged] = await deliveries(dev.token, hook.id);
    expect(logged).toMatchObject({ status: "delivered", attempts: 2 });
    expect(logged.attempt_log.map((a: { outcome: string; status_code: number }) => [a.outcome, a.status_code])).toEqual([
      ["failed", 500],
      ["ok", 200],
    ]);
    // a success ends the run of failures
    expect((await json(await call(`/user/webhooks/${hook.id}`, { token: dev.token }))).data.failing_since).toBeNull();
    // a duplicate message of a delivered delivery sends nothing
    const dup = fakeMessage({ delivery: d.id }, 3);
    await deliverMessage(env, dup as never);
    expect(dup.acked).toBe(true);
    expect(r.received).toHaveLength(2);
  });

  it("a consumer that dies mid-delivery leaves the attempt on record and the message to the queue; the retry delivers", async () => {
    const r = ownReceiver();
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token, { url: r.url });
    const d = await pendingDelivery(hook.id);
    // D1 fails when the outcome is written (the second batch: the first starts the attempt, before the
    // POST): the Worker dies with the answer unrecorded.
    const realBatch = env.DB.batch.bind(env.DB);
    let batches = 0;
    const dying = {
      ...env,
      DB: new Proxy(env.DB, {
        get(target, prop) {
          if (prop === "batch")
            return (stmts: D1PreparedStatement[]) => (++batches === 2 ? Promise.reject(new Error("D1_ERROR: Network connection lost.")) : realBatch(stmts));
          const v = Reflect.get(target, prop);
          return typeof v === "function" ? v.bind(target) : v;
        },
      }),
    } as Env;
    const m = fakeMessage({ delivery: d.id }, 1);
    await expect(deliverMessage(dying, m as never)).rejects.toThrow(/D1_ERROR/);
    expect(m.acked).toBe(false); // the queue sends it again
    let [logged] = await deliveries(dev.token, hook.id);
    expect(logged.status).toBe("pending");
    expect(logged.attempt_log).toEqual([expect.objectContaining({ attempt: 1, outcome: "started", status_code: null })]);

    const again = fakeMessage({ delivery: d.id }, 2);
    await deliverMessage(env, again as never);
    expect(again.acked).toBe(true);
    [logged] = await deliveries(dev.token, hook.id);
    expect(logged).toMatchObject({ status: "delivered", attempts: 2 });
    expect(logged.attempt_log.map((a: { outcome: string }) => a.outcome)).toEqual(["started", "ok"]);
    // at-least-once: the receiver may see the message twice, with one webhook-id to dedupe on
    expect(new Set(r.received.map((x) => x.headers["webhook-id"]))).toEqual(new Set([d.id]));
  });

  it("timeouts and network errors are failed attempts; after the last attempt the delivery is a dead letter", async () => {
    let n = 0;
    const r = ownReceiver(() => {
      n++;
      if (n === 1) throw Object.assign(new Error("The operation was aborted due to timeout"), { name: "TimeoutError" });
      throw new Error("Network connection lost.");
    });
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token, { url: r.url });
    const d = await pendingDelivery(hook.id);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const m = fakeMessage({ delivery: d.id }, attempt);
      await deliverMessage(env, m as never);
      if (attempt < MAX_ATTEMPTS) expect(m.retried, `attempt ${attempt}`).toEqual({ delaySeconds: retryDelaySeconds(attempt) });
      else {
        expect(m.acked).toBe(true);
        expect(m.retried).toBeUndefined();
      }
    }
    const [logged] = await deliveries(dev.token, hook.id);
    expect(logged).toMatchObject({ status: "dead", attempts: MAX_ATTEMPTS, finished_at: expect.any(String) });
    expect(logged.attempt_log[0].error).toBe("no answer within 10 s");
    // the runtime says "Network connection lost." for a refused connection too: told in plain words
    expect(logged.attempt_log[1].error).toBe("could not connect: the receiver refused or dropped the connection");
    // a dead letter is not sent again by a stray message
    const stray = fakeMessage({ delivery: d.id }, 1);
    await deliverMessage(env, stray as never);
    expect(stray.acked).toBe(true);
    expect(r.received).toHaveLength(MAX_ATTEMPTS);
  });

  it("an endpoint failing for 3 days is disabled with a reason and its owner gets an email; enabling clears it", async () => {
    const r = ownReceiver(() => new Response("down", { status: 503 }));
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token, { url: r.url });
    await env.DB.prepare("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?")
      .bind(Date.now() - 3 * 24 * 3600 * 1000 - 1000, hook.id)
      .run();
    const log = vi.spyOn(console, "log");
    const d = await pendingDelivery(hook.id);
    await deliverMessage(env, fakeMessage({ delivery: d.id }, 4) as never);
    const shown = (await json(await call(`/user/webhooks/${hook.id}`, { token: dev.token }))).data;
    expect(shown.enabled).toBe(false);
    expect(shown.disabled_reason).toMatch(/failed for 3 days.*HTTP 503/);
    const mails = await printed(log, new RegExp(`to ${dev.data.email}: Wilayah API: a webhook endpoint was disabled`));
    expect(mails).toHaveLength(1);
    // its pending deliveries are not sent while it is disabled
    const next = await pendingDelivery(hook.id);
    const m = fakeMessage({ delivery: next.id }, 1);
    await deliverMessage(env, m as never);
    expect(m.acked).toBe(true);
    expect(r.received).toHaveLength(1);

    const enabled = (await json(await call(`/user/webhooks/${hook.id}`, { method: "PATCH", token: dev.token, json: { enabled: true } }))).data;
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  });

  it("a failure less than 3 days into a run of failures does not disable", async () => {
    const r = ownReceiver(() => new Response("down", { status: 500 }));
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token, { url: r.url });
    await env.DB.prepare("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?")
      .bind(Date.now() - 2 * 24 * 3600 * 1000, hook.id)
      .run();
    const d = await pendingDelivery(hook.id);
    await deliverMessage(env, fakeMessage({ delivery: d.id }, 1) as never);
    expect((await json(await call(`/user/webhooks/${hook.id}`, { token: dev.token }))).data.enabled).toBe(true);
  });

  it("production refuses a private target at delivery time too (a dead letter, nothing sent)", async () => {
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token, { url: "http://localhost:9/hook" });
    const d = await pendingDelivery(hook.id);
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const m = fakeMessage({ delivery: d.id });
    await deliverMessage({ ...env, ENVIRONMENT: "production" } as Env, m as never);
    expect(m.acked).toBe(true);
    expect(fetchSpy).not.toHaveBeenCalled();
    const [logged] = await deliveries(dev.token, hook.id);
    expect(logged).toMatchObject({ status: "dead", last_error: expect.stringContaining("refused") });
  });
});

describe("deliveries the queue gave up on", () => {
  it("a pending delivery without any activity for 48 hours becomes a dead letter; a recent one is left", async () => {
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token);
    const old = await pendingDelivery(hook.id);
    const recent = await pendingDelivery(hook.id);
    await env.DB.prepare("UPDATE webhook_deliveries SET created_at = ?, last_attempt_at = ? WHERE id = ?")
      .bind(Date.now() - STALE_AFTER_MS - 60_000, Date.now() - STALE_AFTER_MS - 1000, old.id)
      .run();
    expect(await deadLetterStale(env)).toBeGreaterThanOrEqual(1);
    const log = await deliveries(dev.token, hook.id);
    expect(log.find((d: { id: string }) => d.id === old.id)).toMatchObject({ status: "dead", last_error: expect.stringContaining("48 hours") });
    expect(log.find((d: { id: string }) => d.id === recent.id)).toMatchObject({ status: "pending" });
  });
});

describe("test events and redelivery, through the real queue", () => {
  it(
    "at most 30 webhook actions a minute per user: then 429 RATE_LIMITED with Retry-After",
    async () => {
      await freshMinuteWindow();
      const dev = await verifiedDeveloper();
      const hook = await createHook(dev.token);
      const answers = [];
      for (let i = 0; i < 31; i++) answers.push(await call(`/user/webhooks/${hook.id}/roll-secret`, { method: "POST", token: dev.token }));
      expect(answers.filter((r) => r.status === 200).length).toBe(29); // the creation was the first action
      const last = answers.at(-1)!;
      expect(last.headers.get("retry-after")).toBe("60");
      await expectError(last, 429, "RATE_LIMITED");
    },
    MINUTE_WINDOW_TIMEOUT_MS,
  );

  it("POST /test queues a webhook.test the receiver can verify; redeliver sends the same message (same webhook-id) again", async () => {
    const r = ownReceiver();
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token, { url: r.url });
    const res = await call(`/user/webhooks/${hook.id}/test`, { method: "POST", token: dev.token });
    expect(res.status).toBe(201);
    const queued = (await json(res)).data;
    expect(queued).toMatchObject({ id: expect.stringMatching(/^msg_/), event_type: "webhook.test", status: "pending" });
    await waitFor(() => r.received.length >= 1 || undefined);
    const payload = verify(hook.secret, r.received[0]) as { type: string; data: { endpoint_id: string } };
    expect(payload).toMatchObject({ type: "webhook.test", data: { endpoint_id: hook.id } });
    expect(r.received[0].headers["webhook-id"]).toBe(queued.id);
    await waitFor(async () => (await deliveries(dev.token, hook.id))[0]?.status === "delivered" || undefined);

    const again = await call(`/user/webhooks/${hook.id}/deliveries/${queued.id}/redeliver`, { method: "POST", token: dev.token });
    expect(again.status).toBe(200);
    expect((await json(again)).data).toMatchObject({ id: queued.id, status: "pending" });
    await waitFor(() => r.received.length >= 2 || undefined);
    expect(r.received[1].headers["webhook-id"]).toBe(queued.id);
    expect(verify(hook.secret, r.received[1])).toEqual(payload);
    const [logged] = await waitFor(async () => {
      const list = await deliveries(dev.token, hook.id);
      return list[0]?.status === "delivered" && list[0].attempts === 2 ? list : undefined;
    });
    expect(logged.attempt_log).toHaveLength(2);

    // paging and unknown deliveries
    const paged = await json(await call(`/user/webhooks/${hook.id}/deliveries?per_page=1&page=1`, { token: dev.token }));
    expect(paged.meta).toMatchObject({ total: 1, page: 1, per_page: 1, total_pages: 1 });
    expect((await call(`/user/webhooks/${hook.id}/deliveries/msg_nope/redeliver`, { method: "POST", token: dev.token })).status).toBe(404);
    expect((await call(`/user/webhooks/${hook.id}/deliveries?per_page=x`, { token: dev.token })).status).toBe(400);
  });

  it("after a roll, deliveries are signed with the new secret", async () => {
    const r = ownReceiver();
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token, { url: r.url });
    const rolled = (await json(await call(`/user/webhooks/${hook.id}/roll-secret`, { method: "POST", token: dev.token }))).data;
    expect((await call(`/user/webhooks/${hook.id}/test`, { method: "POST", token: dev.token })).status).toBe(201);
    await waitFor(() => r.received.length >= 1 || undefined);
    expect(verify(rolled.secret, r.received[0])).toBeTruthy();
    expect(() => verify(hook.secret, r.received[0])).toThrow();
  });
});
