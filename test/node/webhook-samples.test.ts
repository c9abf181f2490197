/**
 * The Node receiver of docs/api.md ("Webhooks", the `js webhook-receiver` sample) run as written:
 * it accepts a delivery signed the way the Worker signs (standardwebhooks), answers 200 to a retry
 * of the same webhook-id, and throws on a forged signature or a changed body.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib.ts";

const docs = readFileSync(join(root, "docs", "api.md"), "utf8");
const sample = /```js webhook-receiver\n([\s\S]*?)```/.exec(docs)?.[1];
// Inside the repository, so `standardwebhooks` resolves from its node_modules; under the ignored
// test/.generated/, so a suite checking `git status` meanwhile sees nothing.
mkdirSync(join(root, "test", ".generated"), { recursive: true });
const dir = mkdtempSync(join(root, "test", ".generated", "webhook-sample-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  delete process.env.WILAYAH_WEBHOOK_SECRET; // the node files share their processes (vitest.config.ts)
});

describe("docs/api.md: the Node webhook receiver", () => {
  it("verifies a signed delivery, answers a retry as handled, refuses forgeries", async () => {
    expect(sample).toBeDefined();
    const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
    process.env.WILAYAH_WEBHOOK_SECRET = secret;
    const file = join(dir, "receiver.mjs");
    writeFileSync(file, sample ?? "");
    const { receive } = (await import(pathToFileURL(file).href)) as { receive: (body: string, headers: Record<string, string>) => number };

    const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: { endpoint_id: "wh_x", message: "hi" } });
    const id = "msg_sample";
    const now = new Date();
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, now, body),
    };
    expect(receive(body, headers)).toBe(204);
    expect(receive(body, headers)).toBe(200);
    expect(() => receive(body.replace("hi", "ho"), headers)).toThrow();
    const other = `whsec_${Buffer.from(new Uint8Array(24).fill(7)).toString("base64")}`;
    expect(() => receive(body, { ...headers, "webhook-id": "msg_2", "webhook-signature": new Webhook(other).sign("msg_2", now, body) })).toThrow();
    const old = new Date(now.getTime() - 10 * 60 * 1000);
    expect(() =>
      receive(body, {
        "webhook-id": "msg_3",
        "webhook-timestamp": String(Math.floor(old.getTime() / 1000)),
        "webhook-signature": new Webhook(secret).sign("msg_3", old, body),
      }),
    ).toThrow();
  });
});
