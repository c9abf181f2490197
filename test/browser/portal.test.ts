/**
 * The portal in a real browser (playwright-core driving Chromium headless shell) against the Worker
 * under `wrangler dev` with its own state and a local Tripay stand-in (local.ts). One walk, in order:
 * sign up, verify by the emailed link, create a key and see it once, call the API and see the usage
 * move, top up, the signed webhook turns the invoice to paid on the open page, revoke, log out; an
 * admin suspends a user and that user's key stops working. Screenshots of each page, at desktop and
 * phone widths, go to test/browser/screenshots/ (git-ignored).
 */
import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callbackSignature } from "../../src/billing/signature.ts";
import guides from "../../src/site/guides.json";
import {
  accessibilityProblems,
  assertBrowser,
  DESKTOP,
  HOOKS_PORT,
  makeAdmin,
  ORIGIN,
  OTHER_PORT,
  overflowAt,
  PHONE,
  resetLink,
  SHOP_PORT,
  SHOTS,
  startSuite,
  startTripay,
  stopSuite,
  TRIPAY,
  type Transaction,
  verificationLink,
} from "./local.ts";

const output = { text: "" };
let worker: ChildProcess | undefined;
let tripay: { server: Server; transactions: Map<string, Transaction> } | undefined;
let browser: Browser;
const problems: string[] = [];

const ts = Date.now().toString(36);
const ani = { name: "Ani Developer", email: `ani-${ts}@example.test`, password: "correct horse battery" };
const budi = { name: "Budi", email: `budi-${ts}@example.test`, password: "another good pass" };
let secret = "";
let invoiceId = "";

async function newPage(viewport = DESKTOP, locale = "en-US"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale, extraHTTPHeaders: { "accept-language": locale } });
  const page = await context.newPage();
  // CSP violations and script errors show up here: the walk must end with none.
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
  page.on("dialog", (d) => void d.accept());
  return { context, page };
}

/**
 * A screenshot of the page, and for the portal's own pages an accessibility check: serious or
 * critical axe violations fail the walk at its end. The reference page (/docs) is Swagger UI's
 * markup, not ours, and is left out (its known findings: docs/api.md, "Developer portal").
 */
async function shot(page: Page, name: string) {
  // Every page shot at a phone's width is measured: nothing may stick out of 390 px.
  if ((page.viewportSize()?.width ?? 0) <= 400) problems.push(...(await overflowAt(page)));
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  if (!new URL(page.url()).pathname.startsWith("/docs")) problems.push(...(await accessibilityProblems(page)));
}

async function signUp(page: Page, who: typeof ani) {
  await page.goto(`${ORIGIN}/portal/signup`);
  await page.fill("#name", who.name);
  await page.fill("#email", who.email);
  await page.fill("#password", who.password);
  await Promise.all([page.waitForURL(/\/portal\/keys/), page.click("form[action='/portal/signup'] button[type=submit]")]);
}

async function logIn(page: Page, who: typeof ani) {
  await page.goto(`${ORIGIN}/portal/login`);
  await page.fill("#email", who.email);
  await page.fill("#password", who.password);
  await Promise.all([page.waitForURL(/\/portal\/keys/), page.click("form[action='/portal/login'] button[type=submit]")]);
}

const api = (path: string, key: string) => fetch(`${ORIGIN}/api/v1${path}`, { headers: { "x-api-key": key } });

// Counted as a failed test (not only a failed hook) when the browser is missing: never a silent skip.
it("finds the Chromium it drives", () => assertBrowser());

describe("the portal in a browser", () => {
  let page: Page;
  let context: BrowserContext;

  beforeAll(async () => {
    tripay = await startTripay();
    ({ worker, browser } = await startSuite(output, SHOTS));
  }, 300_000); // the suite's state (a first run loads the seed: minutes), the Worker and Chromium

  afterAll(async () => {
    await stopSuite({ worker, browser });
    await new Promise((r) => (tripay ? tripay.server.close(r) : r(undefined)));
  });

  it("sign up: the keys page explains that the email must be verified first", async () => {
    ({ context, page } = await newPage());
    await page.goto(`${ORIGIN}/portal`);
    await expect.poll(() => page.url()).toContain("/portal/login");
    await shot(page, "01-login-desktop");
    await signUp(page, ani);
    await expect(page.locator("[data-testid=verify-first]").textContent()).resolves.toContain("Verify your email first");
    expect(await page.locator("#key-name").isDisabled()).toBe(true);
    // Issue 41: in development (the console mailer) the page says where the link is; a disabled button looks disabled.
    await expect(page.locator("[data-testid=console-mailer]").textContent()).resolves.toContain("printed in the terminal");
    expect(await page.locator("form button[type=submit]:disabled").count()).toBeGreaterThan(0);
    const look = await page.evaluate<{ cursor: string; background: string }>(
      `(() => { const s = getComputedStyle(document.querySelector("form button[type=submit]:disabled")); return { cursor: s.cursor, background: s.backgroundColor }; })()`,
    );
    expect(look).toEqual({ cursor: "not-allowed", background: "rgb(213, 219, 225)" });
    await shot(page, "02-keys-unverified-desktop");
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "__Host-wl_session")!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe("Lax");
    expect(await page.evaluate<string>("document.cookie")).not.toContain("wl_session");
    expect(session.secure).toBe(true);
    expect(session.path).toBe("/");
  });

  it("the emailed link verifies and lands on the portal", async () => {
    const link = await verificationLink(output, ani.email);
    await page.goto(link);
    await expect.poll(() => page.url()).toContain("/portal/keys?verified=1");
    await expect(page.locator(".notice.ok").textContent()).resolves.toContain("verified");
    expect(await page.locator("[data-testid=verify-first]").count()).toBe(0);
  });

  it("create a key: shown once with a copy button and a warning", async () => {
    await page.fill("#key-name", "my app");
    await Promise.all([page.waitForLoadState("load"), page.click("form[action='/portal/keys'] button[type=submit]")]);
    secret = (await page.locator("#new-key-secret").textContent())!.trim();
    expect(secret).toMatch(/^wk_live_/);
    await expect(page.locator("[data-testid=new-key] .notice.warn").textContent()).resolves.toContain("only time");
    await page.click("[data-copy=new-key-secret]");
    await shot(page, "03-keys-created-desktop");
    await page.goto(`${ORIGIN}/portal/keys`);
    expect(await page.content()).not.toContain(secret);
    await shot(page, "04-keys-desktop");
  });

  it("webhooks: add an endpoint (secret shown once), send a test event that arrives signed, see it delivered, redeliver, disable, delete", async () => {
    // A receiver on this machine (a development Worker may post to http://127.0.0.1).
    const received: { headers: Record<string, string>; body: string }[] = [];
    const hooks = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body });
        res.writeHead(204).end();
      });
    });
    const port = HOOKS_PORT;
    await new Promise<void>((r) => hooks.listen(port, "127.0.0.1", r));
    try {
      await page.goto(`${ORIGIN}/portal/webhooks`);
      await page.fill("#webhook-url", `http://127.0.0.1:${port}/hook`);
      await page.check("input[name=events][value='regions.changed']");
      await page.fill("#webhook-regions", "91, 92.01");
      await Promise.all([page.waitForLoadState("load"), page.click("form[action='/portal/webhooks'] button[type=submit]")]);
      const hookSecret = (await page.locator("#webhook-secret-value").textContent())!.trim();
      expect(hookSecret).toMatch(/^whsec_/);
      await shot(page, "05-webhooks-created-desktop");
      await page.goto(`${ORIGIN}/portal/webhooks`);
      expect(await page.content()).not.toContain(hookSecret);
      await expect(page.locator("[data-webhook-id]").count()).resolves.toBe(1);

      await Promise.all([page.waitForURL(/msg=webhook_test_sent/), page.click("form[action$='/test'] button")]);
      await expect.poll(() => received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
      const event = new Webhook(hookSecret).verify(received[0].body, received[0].headers) as { type: string };
      expect(event.type).toBe("webhook.test");
      await expect
        .poll(
          async () => {
            await page.reload();
            return page.locator("[data-status=delivered]").count();
          },
          { timeout: 20_000 },
        )
        .toBe(1);
      await shot(page, "05-webhook-deliveries-desktop");

      await Promise.all([page.waitForURL(/msg=webhook_redelivered/), page.click("form[action$='/redeliver'] button")]);
      await expect.poll(() => received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      expect(received[1].headers["webhook-id"]).toBe(received[0].headers["webhook-id"]);

      await page.goto(`${ORIGIN}/portal/webhooks`);
      await Promise.all([page.waitForURL(/msg=saved/), page.click("form[action$='/enabled'] button")]);
      await expect(page.locator("[data-webhook-id] .badge.revoked").count()).resolves.toBe(1);
      await Promise.all([page.waitForURL(/msg=webhook_deleted/), page.click("form[action$='/delete'] button")]);
      await expect(page.locator("[data-webhook-id]").count()).resolves.toBe(0);
    } finally {
      await new Promise((r) => hooks.close(r));
    }
  });

  it("calls with the key move the usage", async () => {
    for (const path of ["/wilayah/provinsi", "/wilayah/provinsi/32", "/wilayah/search?q=bandung"]) expect((await api(path, secret)).status).toBe(200);
    await page.goto(`${ORIGIN}/portal/usage`);
    await expect(page.locator("[data-testid=usage-total]").textContent()).resolves.toMatch(/^\s*3\s*$/);
    expect(await page.locator(".chart svg rect").count()).toBeGreaterThan(27);
    await shot(page, "05-usage-desktop");
  });

  it("pasted addresses become a table with confidence, downloadable as CSV, counted as calls", async () => {
    await page.goto(`${ORIGIN}/portal/addresses`);
    await shot(page, "05-addresses-desktop");
    await page.fill(
      "#addresses",
      "Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung 40111\nkel cihapit kec bandung wetan bdg\nSukamaju\nDesa Yowied (9101152001), Kec. Tubang, Kab. Merauke",
    );
    await page.click("[data-testid=address-submit]");
    // The answer is a new page: wait for its rows (the page before it is already loaded, so a load event proves nothing).
    await expect.poll(() => page.locator("[data-testid=address-row]").count(), { timeout: 20_000 }).toBe(4);
    const results = await page.locator("[data-testid=address-results]").textContent();
    expect(results).toContain("32.73.19.1001");
    // A code of an earlier edition, read as its successor, with the warning in words
    expect(results).toContain("93.01.15.2001");
    expect(results).toContain("A region code written is of an earlier edition");
    await shot(page, "05-addresses-results-desktop");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=address-download]")]);
    expect(download.suggestedFilename()).toBe("wilayah-addresses.csv");
    await page.goto(`${ORIGIN}/portal/usage`);
    await expect(page.locator("[data-testid=usage-total]").textContent()).resolves.toMatch(/^\s*7\s*$/);
  });

  it("the API reference at /docs loads without errors, and Try it out calls this deployment with the key", async () => {
    const { context: docsContext, page: docs } = await newPage();
    await docs.goto(`${ORIGIN}/docs`);
    await docs.waitForSelector(".opblock");
    expect(await docs.locator(".opblock").count()).toBeGreaterThan(30);
    await shot(docs, "docs");
    await docs.click("button.authorize");
    await docs.locator(".modal-ux input").first().fill(secret);
    await docs.locator(".modal-ux button.authorize").first().click();
    await docs.locator(".modal-ux button.close-modal").click();
    const op = docs.locator("#operations-Regions-searchRegions");
    await op.locator(".opblock-summary").click();
    await op.locator("button.try-out__btn").click();
    await op.locator('tr[data-param-name="q"] input').fill("bandung wetan");
    await op.locator("button.execute").click();
    const status = op.locator(".live-responses-table .response .response-col_status").first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe("200");
    expect(await op.locator(".live-responses-table .microlight").first().textContent()).toContain("Bandung Wetan");
    await shot(docs, "docs-try-it");
    await docsContext.close();
  });

  it("top up: the QR invoice turns to paid and shows the new balance when the webhook lands, without a reload", async () => {
    await page.goto(`${ORIGIN}/portal/billing`);
    await shot(page, "06-billing-desktop");
    await page.fill("#amount", "20000");
    await Promise.all([page.waitForURL(/\/portal\/billing\/invoices\/inv_/), page.click("form[action='/portal/billing/topup'] button[type=submit]")]);
    invoiceId = page.url().split("/").at(-1)!;
    await expect(page.locator("[data-testid=invoice-status]").textContent()).resolves.toContain("Waiting for payment");
    await expect(page.locator(".pay img").getAttribute("src")).resolves.toMatch(/^data:image\/svg\+xml;base64,/);
    await expect.poll(() => page.locator("#invoice-countdown").textContent()).toMatch(/Expires in \d+:\d\d/);
    await shot(page, "07-payment-desktop");

    const tx = tripay!.transactions.get(invoiceId)!;
    const body = JSON.stringify({
      reference: tx.reference,
      merchant_ref: tx.merchant_ref,
      payment_method: "QRIS",
      payment_method_code: "QRIS",
      total_amount: tx.amount,
      fee_merchant: 750,
      fee_customer: 0,
      total_fee: 750,
      amount_received: tx.amount - 750,
      is_closed_payment: 1,
      status: "PAID",
      paid_at: Math.floor(Date.now() / 1000),
      note: null,
    });
    const hook = await fetch(`${ORIGIN}/billing/tripay/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-callback-event": "payment_status",
        "x-callback-signature": await callbackSignature(TRIPAY.TRIPAY_PRIVATE_KEY, body),
      },
      body,
    });
    expect(await hook.json()).toEqual({ success: true });
    const url = page.url();
    await expect.poll(() => page.locator("[data-testid=invoice-status]").textContent(), { timeout: 15_000 }).toBe("Paid");
    await expect(page.locator("[data-testid=invoice-balance]").textContent()).resolves.toBe("10,000");
    expect(await page.locator("#invoice-qr").isHidden()).toBe(true);
    expect(page.url()).toBe(url);
    await shot(page, "08-payment-paid-desktop");
    await page.goto(`${ORIGIN}/portal/billing`);
    await expect(page.locator("[data-testid=balance]").textContent()).resolves.toBe("10,000");
  });

  it("a publishable key: created with its origin, called from a page on that origin (and refused from another), its last use and origin shown, rolled with a grace", async () => {
    // Two pages elsewhere, as a shop's site would be: one on the key's allowed origin, one not.
    const shop = `http://127.0.0.1:${SHOP_PORT}`;
    const other = `http://127.0.0.1:${OTHER_PORT}`;
    await page.goto(`${ORIGIN}/portal/keys`);
    await page.fill("#key-name", "shop page");
    await page.check("#key-kind-publishable");
    await page.fill("#key-origins", shop);
    await page.selectOption("#key-rate", "10");
    await Promise.all([page.waitForLoadState("load"), page.click("form[action='/portal/keys'] button[type=submit]")]);
    const pub = (await page.locator("#new-key-secret").textContent())!.trim();
    expect(pub).toMatch(/^wk_pub_/);
    await expect(page.locator("pre.try").textContent()).resolves.toContain("fetch(");
    await shot(page, "08a-publishable-created-desktop");

    // The guide's page (docs/api.md, `html publishable-page`) with this deployment and the key in it.
    const sample = guides.samples.find((x) => x.lang === "html" && x.annotation === "publishable-page")!.code;
    const html = (key: string) =>
      `<!doctype html><html lang="en"><title>Shop</title><body><h1>Shop</h1>${sample.replace("https://wilayah-api.example.com", ORIGIN).replace("wk_pub_...", key)}</body></html>`;
    const servers = [SHOP_PORT, OTHER_PORT].map((port) => {
      const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html(pub)));
      return new Promise<Server>((r) => server.listen(port, "127.0.0.1", () => r(server)));
    });
    const [a, b] = await Promise.all(servers);
    // Its own context: the refused page's CORS error is expected, not one of the walk's problems.
    const visitor = await browser.newContext({ viewport: DESKTOP });
    try {
      const shopPage = await visitor.newPage();
      await shopPage.goto(`${shop}/`);
      await expect.poll(() => shopPage.locator("#place").textContent()).toBe("Jawa Barat");
      await shopPage.screenshot({ path: join(SHOTS, "08b-publishable-shop-page.png") });
      const otherPage = await visitor.newPage();
      await otherPage.goto(`${other}/`);
      await expect.poll(() => otherPage.locator("#place").textContent()).toMatch(/^Could not load/);
    } finally {
      await visitor.close();
      await Promise.all([a, b].map((server) => new Promise((r) => server.close(r))));
    }
    // From a server (no Origin, no Referer) the key is refused: it belongs in pages.
    expect((await api("/wilayah/provinsi/32", pub)).status).toBe(403);

    // Its last use and origin reach the list when the account object flushes (a minute after the first call).
    await expect
      .poll(
        async () => {
          await page.goto(`${ORIGIN}/portal/keys`);
          return page.locator(`tr:has-text("shop page") td.last-used`).textContent();
        },
        { timeout: 150_000, interval: 5_000 },
      )
      .toContain(`from ${shop}`);
    await shot(page, "08c-publishable-last-used-desktop");

    // Roll it with a day's grace: a new secret shown once; the old one still works meanwhile.
    const row = page.locator(`tr:has-text("shop page")`);
    await row.locator("select[name=grace_seconds]").selectOption("86400");
    await Promise.all([page.waitForLoadState("load"), row.locator("form.roll button").click()]);
    const rolled = (await page.locator("#new-key-secret").textContent())!.trim();
    expect(rolled).toMatch(/^wk_pub_/);
    expect(rolled).not.toBe(pub);
    await expect(page.locator("[data-testid=new-key] h2").textContent()).resolves.toContain("new secret");
    const fromShop = (key: string) => fetch(`${ORIGIN}/api/v1/wilayah/provinsi/32`, { headers: { "x-api-key": key, origin: shop } });
    expect((await fromShop(rolled)).status).toBe(200);
    expect((await fromShop(pub)).status).toBe(200);
    await page.goto(`${ORIGIN}/portal/keys`);
    await expect(page.locator(`tr:has-text("shop page")`).textContent()).resolves.toContain("old secret works until");
    await shot(page, "08d-publishable-rolled-desktop");
  }, 240_000); // two pages on other origins, a roll with its grace, each step through the Worker

  it("the same pages at a phone's width, in Indonesian", async () => {
    const phone = await newPage(PHONE, "id-ID");
    for (const name of ["login", "signup"]) {
      await phone.page.goto(`${ORIGIN}/portal/${name}`);
      expect(await overflowAt(phone.page)).toEqual([]);
      await shot(phone.page, `09-${name}-phone`);
    }
    await logIn(phone.page, ani);
    for (const [path, name] of [
      ["/portal/keys", "keys"],
      ["/portal/usage", "usage"],
      ["/portal/webhooks", "webhooks"],
      ["/portal/addresses", "addresses"],
      ["/portal/billing", "billing"],
      [`/portal/billing/invoices/${invoiceId}`, "payment"],
    ]) {
      await phone.page.goto(`${ORIGIN}${path}`);
      // Nothing wider than the screen.
      expect(await overflowAt(phone.page)).toEqual([]);
      if (name === "usage") {
        // Issue 41: the day chart's axis labels are readable on a phone (they were 7 px), and the days said to be UTC.
        const sizes = await phone.page.locator("svg.day-chart text").evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height));
        expect(sizes.length).toBeGreaterThan(0);
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(9);
        await expect(phone.page.locator("[data-testid=usage-days-utc]").textContent()).resolves.toContain("UTC");
      }
      await shot(phone.page, `09-${name}-phone`);
    }
    await expect(phone.page.locator("h1").textContent()).resolves.toBe("Bayar dengan QRIS");
    await phone.context.close();
  });

  it("revoke the key (with confirmation): it stops working; log out", async () => {
    await page.goto(`${ORIGIN}/portal/keys`);
    // The secret key's row (the publishable key of the step before is listed first).
    await Promise.all([page.waitForURL(/msg=key_revoked/), page.click(`tr:has-text("${secret.slice(0, 12)}") form[action$='/revoke'] button`)]);
    await expect(page.locator(".badge.revoked").count()).resolves.toBe(1);
    expect((await api("/wilayah/provinsi", secret)).status).toBe(401);
    await Promise.all([page.waitForURL(/\/portal\/login/), page.click("[data-testid=logout]")]);
    expect((await context.cookies()).some((c) => c.name === "__Host-wl_session")).toBe(false);
    await page.goto(`${ORIGIN}/portal/keys`);
    await expect.poll(() => page.url()).toContain("/portal/login");
    await context.close();
  });

  it("forgot password: the emailed link sets a new one; the security page shows the events, changes the password and logs out everywhere", async () => {
    ({ context, page } = await newPage());
    await page.goto(`${ORIGIN}/portal/login`);
    await Promise.all([page.waitForURL(/\/portal\/forgot/), page.click("a[href='/portal/forgot']")]);
    await page.fill("#email", ani.email);
    await Promise.all([page.waitForLoadState("load"), page.click("form[action='/portal/forgot'] button[type=submit]")]);
    await expect(page.locator(".notice.ok").textContent()).resolves.toContain("If an account has this email");
    await shot(page, "13-forgot-desktop");
    await page.goto(await resetLink(output, ani.email));
    await shot(page, "14-reset-desktop");
    ani.password = "a brand new password";
    await page.fill("#password", ani.password);
    await Promise.all([page.waitForURL(/msg=password_reset/), page.click("form[action='/portal/reset'] button[type=submit]")]);
    await expect(page.locator(".notice.ok").textContent()).resolves.toContain("every earlier session has ended");
    await logIn(page, ani);
    await page.goto(`${ORIGIN}/portal/security`);
    await expect(page.locator("[data-testid=security-events]").textContent()).resolves.toContain("password_reset");
    await page.fill("#current-password", ani.password);
    ani.password = "another brand new password";
    await page.fill("#new-password", ani.password);
    await Promise.all([page.waitForURL(/msg=password_changed/), page.click("form[action='/portal/security/password'] button[type=submit]")]);
    await expect(page.locator("[data-testid=security-events]").textContent()).resolves.toContain("password_changed");
    await shot(page, "15-security-desktop");
    const phone = await newPage(PHONE, "id-ID");
    await phone.page.goto(`${ORIGIN}/portal/forgot`);
    await shot(phone.page, "16-forgot-phone");
    await logIn(phone.page, ani);
    await phone.page.goto(`${ORIGIN}/portal/security`);
    expect(await overflowAt(phone.page)).toEqual([]);
    await shot(phone.page, "16-security-phone");
    // Log out everywhere (with confirmation): the phone's session ends too.
    await Promise.all([page.waitForURL(/msg=logged_out_everywhere/), page.click("form[action='/portal/security/logout-all'] button")]);
    await phone.page.goto(`${ORIGIN}/portal/keys`);
    await expect.poll(() => phone.page.url()).toContain("/portal/login");
    await phone.context.close();
    await context.close();
  });

  it("an admin suspends a user in the portal and that user's key stops working", async () => {
    const b = await newPage();
    await signUp(b.page, budi);
    await b.page.goto(await verificationLink(output, budi.email));
    await b.page.fill("#key-name", "budi app");
    await Promise.all([b.page.waitForLoadState("load"), b.page.click("form[action='/portal/keys'] button[type=submit]")]);
    const budiKey = (await b.page.locator("#new-key-secret").textContent())!.trim();
    expect((await api("/wilayah/provinsi/32", budiKey)).status).toBe(200);

    makeAdmin(ani.email);
    const a = await newPage();
    await logIn(a.page, ani);
    await a.page.goto(`${ORIGIN}/portal/admin`);
    await shot(a.page, "10-admin-desktop");
    await a.page.fill("#q", budi.email);
    await Promise.all([a.page.waitForURL(/q=/), a.page.click("form[action='/portal/admin'] button")]);
    await Promise.all([a.page.waitForURL(/\/portal\/admin\/users\/user_/), a.page.click(`a:text("${budi.email}")`)]);
    await a.page.fill("#credit-amount", "250");
    await a.page.fill("#credit-reason", "welcome credits");
    await Promise.all([a.page.waitForURL(/msg=saved/), a.page.click("form[action$='/credits'] button")]);
    await Promise.all([a.page.waitForURL(/msg=saved/), a.page.click("form[action$='/status'] button")]);
    await expect(a.page.locator("[data-testid=user-status]").textContent()).resolves.toBe("suspended");
    await shot(a.page, "11-admin-user-desktop");
    const phone = await newPage(PHONE);
    await logIn(phone.page, ani);
    for (const [path, name] of [
      ["/portal/admin", "admin"],
      [new URL(a.page.url()).pathname, "admin-user"],
    ]) {
      await phone.page.goto(`${ORIGIN}${path}`);
      expect(await overflowAt(phone.page)).toEqual([]);
      await shot(phone.page, `12-${name}-phone`);
    }
    await phone.context.close();
    const res = await api("/wilayah/provinsi/32", budiKey);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("ACCOUNT_SUSPENDED");
    await a.context.close();
    await b.context.close();
  });

  it("no script errors or CSP violations on any page", () => {
    expect(problems).toEqual([]);
  });
});
