/**
 * A paying customer's own records in a real browser (issue 54), against `wrangler dev` with its own
 * state and the local Tripay stand-in (local.ts): the request log page (a failed call found by the
 * request id pasted from its error, filters), the usage page's alerts and spend limit
 * (the 80% and 100% emails in wrangler's output), billing details, a top-up paid through the signed
 * callback and its receipt (kwitansi) printed to an A4 PDF whose first page is rendered to PNG
 * (pdftoppm) to be looked at. Desktop and phone widths, English and Indonesian; axe on every page.
 * Screenshots and the PDF go to test/browser/screenshots/ (git-ignored).
 */
import type { ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { d1, root } from "../../scripts/lib.ts";
import { callbackSignature } from "../../src/billing/signature.ts";
import {
  accessibilityProblems,
  assertBrowser,
  ORIGIN,
  STATE,
  setPlanOf,
  startSuite,
  startTripay,
  stopSuite,
  TRIPAY,
  type Transaction,
  verificationLink,
} from "./local.ts";

const SHOTS = join(root, "test", "browser", "screenshots");
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const output = { text: "" };
let worker: ChildProcess | undefined;
let tripay: { server: Server; transactions: Map<string, Transaction> } | undefined;
let browser: Browser;
const problems: string[] = [];
/** Where the walk sends a wrong value on purpose (an NPWP of 5 digits, a negative limit, a status class of 6xx). */
const REFUSED_ON_PURPOSE = ["/portal/billing/details", "/portal/usage/alerts", "/portal/requests?status=6xx"];

const ts = Date.now().toString(36);
const citra = { name: "Citra Finance", email: `citra-${ts}@example.test`, password: "correct horse battery" };
let secret = "";
let failedId = "";
let invoiceId = "";

async function newPage(viewport = DESKTOP, locale = "en-US"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale, extraHTTPHeaders: { "accept-language": locale } });
  const page = await context.newPage();
  page.on("console", (m) => {
    // The forms this walk fills wrongly on purpose answer 400 (the page with the error): Chromium logs that load.
    const refusedOnPurpose = REFUSED_ON_PURPOSE.some((path) => page.url().startsWith(`${ORIGIN}${path}`)) && m.text().includes("status of 400");
    if (m.type() === "error" && !refusedOnPurpose) problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
  page.on("dialog", (d) => void d.accept());
  return { context, page };
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  problems.push(...(await accessibilityProblems(page)));
}

const api = (path: string, init: RequestInit = {}) => fetch(`${ORIGIN}/api/v1${path}`, { ...init, headers: { "x-api-key": secret, ...init.headers } });
const noWiderThan = async (page: Page, width: number) => expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);

it("finds the Chromium it drives", () => assertBrowser());

describe("a paying customer's records in a browser", () => {
  let page: Page;
  let context: BrowserContext;

  beforeAll(async () => {
    tripay = await startTripay();
    ({ worker, browser } = await startSuite(output, SHOTS));
    // A plan of 10 calls a month, so the quota's alerts come after a few calls.
    d1(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('records10', 'Records test', 0, 10, 600, '[]', 80, 0)",
      { persistTo: STATE },
    );
  }, 300_000);

  afterAll(async () => {
    await stopSuite({ worker, browser });
    await new Promise((r) => (tripay ? tripay.server.close(r) : r(undefined)));
  });

  it("sign up, verify, a key; the billing details for receipts", async () => {
    ({ context, page } = await newPage());
    await page.goto(`${ORIGIN}/portal/signup`);
    await page.fill("#name", citra.name);
    await page.fill("#email", citra.email);
    await page.fill("#password", citra.password);
    await Promise.all([page.waitForURL(/\/portal\/keys/), page.click("form[action='/portal/signup'] button[type=submit]")]);
    await page.goto(await verificationLink(output, citra.email));
    await expect.poll(() => page.url()).toContain("/portal/keys?verified=1");
    setPlanOf(citra.email, "records10");
    await page.fill("#key-name", "backend");
    await Promise.all([page.waitForLoadState("load"), page.click("form[action='/portal/keys'] button[type=submit]")]);
    secret = (await page.locator("#new-key-secret").textContent())!.trim();
    expect(secret).toMatch(/^wk_live_/);

    await page.goto(`${ORIGIN}/portal/billing`);
    await page.fill("#company_name", "PT Contoh Maju Bersama");
    await page.fill("#npwp", "01.234.567.8-901.000");
    await page.fill("#address", "Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung 40111");
    await Promise.all([page.waitForURL(/msg=details_saved/), page.click("form[action='/portal/billing/details'] button[type=submit]")]);
    await expect(page.locator(".notice.ok").textContent()).resolves.toContain("Billing details saved");
    await expect(page.locator("#npwp").inputValue()).resolves.toBe("01.234.567.8-901.000");
    // A wrong NPWP is refused with the field named, and nothing changes.
    await page.fill("#npwp", "12345");
    await page.click("form[action='/portal/billing/details'] button[type=submit]");
    await expect(page.locator(".notice.err").textContent()).resolves.toContain("npwp");
  });

  it("the request log: a failed call found by the request id pasted from its error answer; filters (paging: test/account/requests.test.ts)", async () => {
    for (let i = 0; i < 8; i++) expect((await api("/wilayah/provinsi")).status).toBe(200);
    const failed = await api("/wilayah/kabupaten/99.99");
    expect(failed.status).toBe(404);
    const body = (await failed.json()) as { error: { code: string; request_id: string } };
    failedId = body.error.request_id;
    expect(failedId).toBe(failed.headers.get("x-request-id"));

    await page.goto(`${ORIGIN}/portal/requests`);
    await expect.poll(() => page.locator("[data-testid=requests] tbody tr").count(), { timeout: 10_000 }).toBe(9);
    await shot(page, "20-requests-desktop");
    await page.fill("#request_id", failedId);
    await Promise.all([page.waitForURL(/request_id=/), page.click("form.filters button[type=submit]")]);
    const detail = page.locator("[data-testid=request-detail]");
    await expect(detail.textContent()).resolves.toContain("NOT_FOUND");
    await expect(detail.textContent()).resolves.toContain("/wilayah/kabupaten/:id");
    await expect(detail.textContent()).resolves.toContain("backend");
    await shot(page, "21-request-found-desktop");

    await page.goto(`${ORIGIN}/portal/requests?status=2xx&route=${encodeURIComponent("/wilayah/provinsi")}`);
    await expect(page.locator("[data-testid=requests] tbody tr").count()).resolves.toBe(8);
    await page.goto(`${ORIGIN}/portal/requests?status=5xx`);
    await expect(page.locator("[data-testid=requests-none]").textContent()).resolves.toContain("No calls match");
    // a malformed filter is said, not a crash
    await page.goto(`${ORIGIN}/portal/requests?status=6xx`);
    await expect(page.locator(".notice.err").textContent()).resolves.toContain("status");
  });

  it("alerts at 80% and 100% of the quota: emailed once each, shown on the usage page; the spend limit and low-credits level set there", async () => {
    // 8 of 10 already: the 80% email was printed by the console mailer (in the account's language, Indonesian by default)
    await expect.poll(() => output.text.includes(`to ${citra.email}: Wilayah API: 80% kuota bulan ini terpakai`), { timeout: 15_000 }).toBe(true);
    for (let i = 0; i < 2; i++) expect((await api("/wilayah/provinsi")).status).toBe(200);
    await expect.poll(() => output.text.includes(`to ${citra.email}: Wilayah API: kuota bulan ini sudah habis`), { timeout: 15_000 }).toBe(true);
    const refused = await api("/wilayah/provinsi");
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("QUOTA_EXCEEDED");

    await page.goto(`${ORIGIN}/portal/usage`);
    await expect(page.locator("[data-testid=alerts-quota]").textContent()).resolves.toContain("10 of 10 calls (100%)");
    await expect.poll(() => page.locator("[data-testid=alerts-sent] li").count(), { timeout: 10_000 }).toBe(2);
    await page.fill("#spend_limit", "1");
    await page.fill("#low_credits_below", "5000");
    await page.selectOption("#language", "en");
    await Promise.all([page.waitForURL(/msg=alerts_saved/), page.click("[data-testid=alerts-form] button[type=submit]")]);
    await expect(page.locator(".notice.ok").textContent()).resolves.toContain("saved");
    await expect(page.locator("#spend_limit").inputValue()).resolves.toBe("1");
    await shot(page, "22-usage-alerts-desktop");
    // a bad value: the form says which field, the rest of the page stays
    await page.fill("#spend_limit", "-5");
    await page.evaluate(`document.getElementById("spend_limit").removeAttribute("min")`);
    await page.click("[data-testid=alerts-form] button[type=submit]");
    await expect(page.locator("#alerts .notice.err").textContent()).resolves.toContain("spend_limit");
  });

  it("top up through QRIS: paid by the signed callback, its receipt on the billing page; calls past the spend limit get 402 SPEND_LIMIT_REACHED", async () => {
    await page.goto(`${ORIGIN}/portal/billing`);
    await page.fill("#amount", "150000");
    await Promise.all([page.waitForURL(/\/portal\/billing\/invoices\/inv_/), page.click("form[action='/portal/billing/topup'] button[type=submit]")]);
    invoiceId = page.url().split("/").at(-1)!;
    const tx = tripay!.transactions.get(invoiceId)!;
    const body = JSON.stringify({
      reference: tx.reference,
      merchant_ref: tx.merchant_ref,
      payment_method: "QRIS",
      payment_method_code: "QRIS",
      total_amount: tx.amount,
      fee_merchant: 1_050,
      fee_customer: 0,
      total_fee: 1_050,
      amount_received: tx.amount - 1_050,
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
    await expect.poll(() => page.locator("[data-testid=invoice-status]").textContent(), { timeout: 15_000 }).toBe("Paid");
    await expect(page.locator("[data-testid=invoice-receipt]").isVisible()).resolves.toBe(true);

    // credits now: one call beyond the quota (limit 1), then the limit refuses
    expect((await api("/wilayah/provinsi")).status).toBe(200);
    const capped = await api("/wilayah/provinsi");
    expect(capped.status).toBe(402);
    const err = ((await capped.json()) as { error: { code: string; request_id: string } }).error;
    expect(err.code).toBe("SPEND_LIMIT_REACHED");
    await expect.poll(() => output.text.includes(`to ${citra.email}: Wilayah API: your monthly spend limit is reached`), { timeout: 15_000 }).toBe(true);
    await page.goto(`${ORIGIN}/portal/requests?request_id=${err.request_id}`);
    await expect(page.locator("[data-testid=request-detail]").textContent()).resolves.toContain("SPEND_LIMIT_REACHED");

    await page.goto(`${ORIGIN}/portal/billing#receipts`);
    const rows = page.locator("[data-testid=receipts] tbody tr");
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toContain("Rp150,000");
    await shot(page, "23-billing-receipts-desktop");
  });

  it("the receipt: a page with seller, buyer, NPWP, reference and the amount in words; printed to one clean A4 page (PDF, first page rendered to PNG)", async () => {
    await page.goto(`${ORIGIN}/portal/billing`);
    await Promise.all([page.waitForURL(/\/portal\/billing\/receipts\/inv_/), page.locator("[data-testid=receipts] a").first().click()]);
    const receipt = page.locator("[data-testid=receipt]");
    const text = (await receipt.textContent()) ?? "";
    for (const expected of [
      "KWITANSI",
      "PT Contoh Maju Bersama",
      "NPWP 01.234.567.8-901.000",
      "Rp150.000",
      "Seratus lima puluh ribu rupiah",
      tripay!.transactions.get(invoiceId)!.reference,
      "LUNAS / PAID",
    ])
      expect(text).toContain(expected);
    await expect(page.locator("[data-testid=receipt-number]").textContent()).resolves.toMatch(/^KW-20\d\d-\d{6}$/);
    await shot(page, "24-receipt-desktop");

    const pdf = join(SHOTS, "24-receipt.pdf");
    await page.pdf({ path: pdf, format: "A4", printBackground: true });
    const info = execFileSync("pdfinfo", [pdf], { encoding: "utf8" });
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)|Page size:\s+595\.\d+ x 842\.\d+ pts \(A4\)/);
    // The first page as an image, to be looked at (24-receipt-page1.png); no toolbar in print.
    execFileSync("pdftoppm", ["-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", pdf, join(SHOTS, "24-receipt-page1")]);
    expect(statSync(join(SHOTS, "24-receipt-page1.png")).size).toBeGreaterThan(10_000);
    const printed = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" });
    expect(printed).toContain("Seratus lima puluh ribu rupiah");
    expect(printed).not.toContain("Print or save as PDF");
  });

  it("the same pages at a phone's width, in Indonesian", async () => {
    const phone = await newPage(PHONE, "id-ID");
    await phone.page.goto(`${ORIGIN}/portal/login`);
    await phone.page.fill("#email", citra.email);
    await phone.page.fill("#password", citra.password);
    await Promise.all([phone.page.waitForURL(/\/portal\/keys/), phone.page.click("form[action='/portal/login'] button[type=submit]")]);
    for (const [path, name] of [
      ["/portal/requests", "requests"],
      [`/portal/requests?request_id=${failedId}`, "request-found"],
      ["/portal/usage", "usage-alerts"],
      ["/portal/billing", "billing-receipts"],
      [`/portal/billing/receipts/${invoiceId}`, "receipt"],
    ]) {
      await phone.page.goto(`${ORIGIN}${path}`);
      await noWiderThan(phone.page, PHONE.width);
      await shot(phone.page, `25-${name}-phone`);
    }
    await phone.page.goto(`${ORIGIN}/portal/requests`);
    await expect(phone.page.locator("h1").textContent()).resolves.toBe("Log permintaan");
    await phone.page.goto(`${ORIGIN}/portal/usage`);
    await expect(phone.page.locator("#alerts h2").textContent()).resolves.toBe("Peringatan dan batas");
    await phone.context.close();
    await context.close();
  });

  it("no script errors, CSP violations or serious accessibility problems on any page", () => {
    expect(existsSync(join(SHOTS, "24-receipt-page1.png"))).toBe(true);
    expect(problems).toEqual([]);
  });
});
