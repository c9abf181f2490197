import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { BASE, call, expectError, json, register, verifiedDeveloper } from "../helpers";
import { createHook, HOOK_URL } from "./helpers";

describe("webhook endpoints over HTTP (/user/webhooks)", () => {
  it("create shows the secret once (whsec_, 24+ random bytes); list, get, patch, delete; only an encrypted secret is stored", async () => {
    const dev = await verifiedDeveloper();
    const res = await call("/user/webhooks", {
      method: "POST",
      token: dev.token,
      json: { url: HOOK_URL, events: ["edition.published", "regions.changed"], regions: ["91", "92.01"] },
    });
    expect(res.status).toBe(201);
    const created = (await json(res)).data;
    expect(created).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      url: HOOK_URL,
      events: ["edition.published", "regions.changed"],
      regions: ["91", "92.01"],
      enabled: true,
      disabled_reason: null,
      failing_since: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(atob(created.secret.slice(6)).length).toBeGreaterThanOrEqual(24);

    const list = (await json(await call("/user/webhooks", { token: dev.token }))).data;
    const { secret, ...shown } = created;
    expect(list).toEqual([shown]);
    expect(JSON.stringify(list)).not.toContain(secret);
    expect((await json(await call(`/user/webhooks/${created.id}`, { token: dev.token }))).data).toEqual(shown);

    const stored = await env.DB.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?").bind(created.id).first<{ secret: string }>();
    expect(stored!.secret).toMatch(/^v1\.j\./);
    expect(stored!.secret).not.toContain(secret.slice(6));

    const patched = await call(`/user/webhooks/${created.id}`, { method: "PATCH", token: dev.token, json: { enabled: false, regions: ["32.73.09"] } });
    expect(patched.status).toBe(200);
    expect((await json(patched)).data).toMatchObject({ enabled: false, regions: ["32.73.09"], events: ["edition.published", "regions.changed"] });

    const deleted = await call(`/user/webhooks/${created.id}`, { method: "DELETE", token: dev.token });
    expect(deleted.status).toBe(200);
    await expectError(await call(`/user/webhooks/${created.id}`, { token: dev.token }), 404, "NOT_FOUND");
    expect((await json(await call("/user/webhooks", { token: dev.token }))).data).toEqual([]);
  });

  it("roll-secret answers a new secret once; the old one is gone", async () => {
    const dev = await verifiedDeveloper();
    const hook = await createHook(dev.token);
    const res = await call(`/user/webhooks/${hook.id}/roll-secret`, { method: "POST", token: dev.token });
    expect(res.status).toBe(200);
    const rolled = (await json(res)).data;
    expect(rolled.secret).toMatch(/^whsec_/);
    expect(rolled.secret).not.toBe(hook.secret);
    expect(rolled.id).toBe(hook.id);
  });

  it("needs the session token, and a verified email to create", async () => {
    await expectError(await call("/user/webhooks"), 401, "MISSING_TOKEN");
    await expectError(await call("/user/webhooks", { token: "nope" }), 401, "INVALID_TOKEN");
    const r = await register();
    await expectError(
      await call("/user/webhooks", { method: "POST", token: r.token, json: { url: HOOK_URL, events: ["edition.published"] } }),
      403,
      "EMAIL_NOT_VERIFIED",
    );
  });

  it("another user's endpoint is 404 for every operation, and stays as it was", async () => {
    const alice = await verifiedDeveloper();
    const bob = await verifiedDeveloper();
    const hook = await createHook(alice.token);
    const paths: [string, string, unknown?][] = [
      ["GET", `/user/webhooks/${hook.id}`],
      ["PATCH", `/user/webhooks/${hook.id}`, { enabled: false }],
      ["DELETE", `/user/webhooks/${hook.id}`],
      ["POST", `/user/webhooks/${hook.id}/roll-secret`],
      ["POST", `/user/webhooks/${hook.id}/test`],
      ["GET", `/user/webhooks/${hook.id}/deliveries`],
      ["POST", `/user/webhooks/${hook.id}/deliveries/msg_x/redeliver`],
    ];
    for (const [method, path, body] of paths) await expectError(await call(path, { method, token: bob.token, json: body }), 404, "NOT_FOUND");
    expect((await json(await call(`/user/webhooks/${hook.id}`, { token: alice.token }))).data.enabled).toBe(true);
    expect((await json(await call("/user/webhooks", { token: bob.token }))).data).toEqual([]);
  });

  it("at most 10 endpoints per account, also under concurrency: 409 WEBHOOK_LIMIT_REACHED", async () => {
    const dev = await verifiedDeveloper();
    const results = await Promise.all(
      Array.from({ length: 13 }, (_, i) =>
        call("/user/webhooks", { method: "POST", token: dev.token, json: { url: `${HOOK_URL}/${i}`, events: ["edition.published"] } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of results.filter((r) => r.status !== 201)) await expectError(r, 409, "WEBHOOK_LIMIT_REACHED");
  });

  it("bad bodies are 400 VALIDATION_ERROR naming the field", async () => {
    const dev = await verifiedDeveloper();
    const bad: [unknown, string][] = [
      [{ url: "not a url", events: ["edition.published"] }, "url"],
      [{ url: "ftp://example.com/x", events: ["edition.published"] }, "url"],
      [{ url: "https://user:pw@example.com/x", events: ["edition.published"] }, "url"],
      [{ url: HOOK_URL, events: [] }, "events"],
      [{ url: HOOK_URL, events: ["edition.deleted"] }, "events.0"],
      [{ url: HOOK_URL, events: ["edition.published", "edition.published"] }, "events"],
      [{ url: HOOK_URL, events: ["regions.changed"], regions: ["9"] }, "regions.0"],
      [{ url: HOOK_URL, events: ["regions.changed"], regions: ["92.1"] }, "regions.0"],
      [{ url: HOOK_URL, events: ["regions.changed"], regions: ["9201"] }, "regions.0"],
      [{ url: HOOK_URL, events: ["regions.changed"], regions: Array.from({ length: 21 }, (_, i) => `${10 + i}`) }, "regions"],
      [{ url: HOOK_URL, events: ["edition.published"], enabled: "yes" }, "enabled"],
      [{ url: HOOK_URL, events: ["edition.published"], secret: "whsec_mine" }, "(root)"],
      [{ events: ["edition.published"] }, "url"],
    ];
    for (const [body, path] of bad) {
      const e = await expectError(await call("/user/webhooks", { method: "POST", token: dev.token, json: body }), 400, "VALIDATION_ERROR");
      expect(
        e.details?.map((d) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const hook = await createHook(dev.token);
    await expectError(await call(`/user/webhooks/${hook.id}`, { method: "PATCH", token: dev.token, json: {} }), 400, "VALIDATION_ERROR");
    await expectError(await call(`/user/webhooks/${hook.id}`, { method: "PATCH", token: dev.token, json: { url: "gopher://x" } }), 400, "VALIDATION_ERROR");
  });

  it("production refuses http and private, loopback and link-local targets; development allows http://localhost", async () => {
    const dev = await verifiedDeveloper();
    const production = { ...env, ENVIRONMENT: "production" };
    const create = (url: string, bindings: Env = production) =>
      app.fetch(
        new Request(`${BASE}/user/webhooks`, {
          method: "POST",
          headers: { authorization: `Bearer ${dev.token}`, "content-type": "application/json", "cf-connecting-ip": "198.51.100.7" },
          body: JSON.stringify({ url, events: ["edition.published"] }),
        }),
        bindings,
        { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext,
      );
    for (const url of [
      "http://example.com/hook",
      "https://localhost/hook",
      "https://127.0.0.1/hook",
      "https://0x7f.1/hook",
      "https://10.1.2.3/hook",
      "https://172.20.0.1/hook",
      "https://192.168.1.1/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/hook",
      "https://[::1]/hook",
      "https://[fd00::1]/hook",
      "https://[fe80::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://printer.local/hook",
      "https://db.internal/hook",
      "https://intranet/hook",
    ]) {
      const e = await expectError(await create(url), 400, "VALIDATION_ERROR");
      expect(e.details?.[0]?.path, url).toBe("url");
    }
    expect((await create("https://93.184.215.14/hook")).status).toBe(201);
    expect((await create("https://hooks.example.com/x")).status).toBe(201);
    // The tests' own environment is development: http and localhost are allowed there.
    expect(
      (await call("/user/webhooks", { method: "POST", token: dev.token, json: { url: "http://localhost:9000/hook", events: ["edition.published"] } })).status,
    ).toBe(201);
  });

  it("unknown paths and methods answer the contract's errors", async () => {
    const dev = await verifiedDeveloper();
    const res = await exports.default.fetch(new Request(`${BASE}/user/webhooks`, { method: "PUT", headers: { authorization: `Bearer ${dev.token}` } }));
    await expectError(res, 405, "METHOD_NOT_ALLOWED");
    await expectError(
      await call("/user/webhooks", { method: "POST", token: dev.token, body: "{", headers: { "content-type": "application/json" } }),
      400,
      "INVALID_JSON",
    );
  });
});
