/** Shared by the webhook tests: an endpoint over HTTP, a receiver standing in for the developer's server, fake queue messages. */
import { vi } from "vitest";
import type { DeliveryMessage } from "../../src/webhooks/service";
import { call, json } from "../helpers";

export const HOOK_URL = "https://hooks.receiver.test/wilayah";

export async function createHook(token: string, body: Record<string, unknown> = {}) {
  const res = await call("/user/webhooks", { method: "POST", token, json: { url: HOOK_URL, events: ["edition.published"], ...body } });
  if (res.status !== 201) throw new Error(`create webhook: ${res.status} ${await res.text()}`);
  return (await json(res)).data as { id: string; secret: string; url: string; enabled: boolean };
}

export type Received = { url: string; headers: Record<string, string>; body: string };

/**
 * Stands in for receivers: outbound fetch to `host` is answered by `answer` (the n-th request, from
 * 0) and recorded; anything else goes to the real fetch.
 */
export function receiver(host: string, answer: (n: number, r: Received) => Response | Promise<Response> = () => new Response("ok")) {
  const received: Received[] = [];
  const real = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (new URL(req.url).host !== host) return real(input as RequestInfo, init);
    const r: Received = { url: req.url, headers: Object.fromEntries(req.headers), body: await req.text() };
    received.push(r);
    return answer(received.length - 1, r);
  });
  return { received, restore: () => spy.mockRestore() };
}

/** A queue message as the consumer gets it, recording what the consumer decided. */
export function fakeMessage(body: DeliveryMessage, attempts = 1) {
  const m = {
    id: crypto.randomUUID(),
    timestamp: new Date(),
    attempts,
    body,
    acked: false,
    retried: undefined as undefined | { delaySeconds?: number },
    ack() {
      m.acked = true;
    },
    retry(o?: { delaySeconds?: number }) {
      m.retried = o ?? {};
    },
  };
  return m;
}

export async function waitFor<T>(get: () => T | undefined | Promise<T | undefined>, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v) return v;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}
