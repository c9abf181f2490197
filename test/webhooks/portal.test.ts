/** The portal's webhook pages over HTTP (forms, cookies, CSRF); the same walk in Chromium is in test/browser/portal.test.ts. */
import { afterEach, describe, expect, it } from "vitest";
import { BASE, call } from "../helpers";
import { signedUp } from "../portal/browser";
import { receiver, waitFor } from "./helpers";

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe("portal: /portal/webhooks", () => {
  it("add (secret shown once), list, disable and enable, send a test event, see it delivered, redeliver, roll the secret, delete", async () => {
    const host = `portal-${crypto.randomUUID().slice(0, 8)}.receiver.test`;
    const r = receiver(host);
    restore = r.restore;
    const { b, link } = await signedUp();
    await b.follow(await b.get(link.pathname + link.search));
    const page = await b.get("/portal/webhooks");
    expect(page.status).toBe(200);
    expect(b.last).toContain('href="/portal/webhooks" aria-current="page"');

    // two checkboxes of one name: sent as a browser sends them
    const form = new URLSearchParams([
      ["csrf", b.csrf],
      ["url", `https://${host}/hook`],
      ["events", "edition.published"],
      ["events", "regions.changed"],
      ["regions", "91, 92.01"],
    ]);
    const created = await call("/portal/webhooks", {
      method: "POST",
      body: form.toString(),
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "content-type": "application/x-www-form-urlencoded", origin: BASE },
    });
    expect(created.status).toBe(201);
    const html = await created.text();
    const secret = /id="webhook-secret-value">(whsec_[^<]+)</.exec(html)?.[1];
    expect(secret).toMatch(/^whsec_/);
    const id = /data-webhook-id="(wh_[^"]+)"/.exec(html)?.[1] ?? "";
    expect(id).toMatch(/^wh_/);
    expect(html).toContain("edition.published, regions.changed (91, 92.01)");

    const listed = await (await b.get("/portal/webhooks")).text();
    expect(listed).not.toContain(secret!);

    expect((await b.post(`/portal/webhooks/${id}/enabled`, { enabled: "false" })).headers.get("location")).toBe("/portal/webhooks?msg=saved");
    expect(await (await b.get("/portal/webhooks")).text()).toMatch(/badge revoked">(disabled|nonaktif)</);
    await b.post(`/portal/webhooks/${id}/enabled`, { enabled: "true" });
    expect(await (await b.get("/portal/webhooks")).text()).toMatch(/badge active">(enabled|aktif)</);

    const sent = await b.post(`/portal/webhooks/${id}/test`, {});
    expect(sent.headers.get("location")).toBe(`/portal/webhooks/${id}?msg=webhook_test_sent`);
    await waitFor(() => r.received.length >= 1 || undefined);
    const log = await waitFor(async () => {
      const text = await (await b.get(`/portal/webhooks/${id}`)).text();
      return text.includes('data-status="delivered"') ? text : undefined;
    });
    const deliveryId = /data-delivery-id="(msg_[^"]+)"/.exec(log)?.[1];
    expect(deliveryId).toBe(r.received[0].headers["webhook-id"]);

    const again = await b.post(`/portal/webhooks/${id}/deliveries/${deliveryId}/redeliver`, {});
    expect(again.headers.get("location")).toBe(`/portal/webhooks/${id}?msg=webhook_redelivered`);
    await waitFor(() => r.received.length >= 2 || undefined);
    expect(r.received[1].headers["webhook-id"]).toBe(deliveryId);

    const rolled = await (await b.post(`/portal/webhooks/${id}/roll-secret`, {})).text();
    const newSecret = /id="webhook-secret-value">(whsec_[^<]+)</.exec(rolled)?.[1];
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);

    expect((await b.post(`/portal/webhooks/${id}/delete`, {})).headers.get("location")).toBe("/portal/webhooks?msg=webhook_deleted");
    expect(await (await b.get("/portal/webhooks")).text()).not.toContain(id);
    expect((await b.get(`/portal/webhooks/${id}`)).status).toBe(404);
  });

  it("a bad form shows the fields; without a session it is the login page; without CSRF it is refused", async () => {
    const { b, link } = await signedUp();
    await b.follow(await b.get(link.pathname + link.search));
    await b.get("/portal/webhooks");
    const bad = await b.post("/portal/webhooks", { url: "not a url", regions: "9" });
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).toContain("events");
    expect(text).toContain("regions.0");
    const out = await call("/portal/webhooks", { redirect: "manual" });
    expect(out.headers.get("location")).toBe("/portal/login");
    expect((await b.post("/portal/webhooks", { url: "https://example.com/x", events: "edition.published" }, { csrf: "wrong" })).status).toBe(403);
  });
});
