/**
 * Reporting a wrong fact in a real browser (local.ts: the Worker under `wrangler dev` with its own
 * state): a developer finds a village in the landing page's search, follows "Report a problem",
 * files a report and sees it open; the address results carry the same link; an admin decides it in
 * the portal's queue; the developer sees the answer. Screenshots go to test/browser/screenshots/.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityProblems, makeAdmin, ORIGIN, overflowAt, SHOTS, signUpVerified, startSuite, stopSuite } from "./local.ts";

const output = { text: "" };
let worker: ChildProcess | undefined;
let browser: Browser;
const problems: string[] = [];
const ts = Date.now().toString(36);
const ani = { name: "Ani Reporter", email: `ani-report-${ts}@example.test`, password: "correct horse battery" };
const budi = { name: "Budi Admin", email: `budi-report-${ts}@example.test`, password: "another good pass" };

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US", extraHTTPHeaders: { "accept-language": "en-US" } });
  const page = await context.newPage();
  page.on("console", (m) => {
    // the form answered with its error is a 400 page on purpose (the evidence left out below)
    if (m.type() === "error" && !(page.url().endsWith("/portal/report") && m.text().includes("status of 400"))) problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
  return { context, page };
}

async function shot(page: Page, name: string) {
  // Every page shot at a phone's width is measured: nothing may stick out of 390 px.
  if ((page.viewportSize()?.width ?? 0) <= 400) problems.push(...(await overflowAt(page)));
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  problems.push(...(await accessibilityProblems(page)));
}

async function signUp(page: Page, who: typeof ani) {
  await signUpVerified(page, who, output);
  await expect.poll(() => page.url()).toContain("verified=1");
}

describe("reporting a wrong fact in the browser", () => {
  let a: { context: BrowserContext; page: Page };
  let b: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    ({ worker, browser } = await startSuite(output, SHOTS));
  }, 300_000); // the suite's state (a first run loads the seed: minutes), the Worker and Chromium

  afterAll(async () => {
    await stopSuite({ worker, browser });
  });

  it("from the landing page's search: Report a problem opens the form; the report is filed and listed as open", async () => {
    a = await newPage();
    await signUp(a.page, ani);
    await a.page.goto(`${ORIGIN}/`);
    await a.page.fill("#demo-q", "Cihapit");
    await a.page.click("form[data-demo=search] button[type=submit]");
    const link = a.page.locator("#demo-search-result a.report-link").first();
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe("/portal/report?region=32.73.09.1001");
    await Promise.all([a.page.waitForURL(/\/portal\/report\?region=/), link.click()]);
    await expect(a.page.locator("[data-testid=report-region]").textContent()).resolves.toContain("Cihapit (32.73.09.1001, kelurahan)");
    await a.page.selectOption("#report-field", "postal_code");
    await a.page.fill("#report-value", "4011");
    await a.page.fill("#report-text", "The post office in Jalan Cihapit stamps 40199.");
    await shot(a.page, "report-form");
    // a value out of shape is not refused at filing (a person reviews it); an empty evidence is
    await a.page.fill("#report-text", "");
    await a.page.click("[data-testid=report-submit]");
    await expect(a.page.locator(".notice.err").textContent()).resolves.toContain("evidence");
    await a.page.fill("#report-value", "40199");
    await a.page.fill("#report-text", "The post office in Jalan Cihapit stamps 40199.");
    await Promise.all([a.page.waitForURL(/\/portal\/reports\?msg=report_filed/), a.page.click("[data-testid=report-submit]")]);
    const row = a.page.locator("[data-testid=own-report]").first();
    await expect(row.textContent()).resolves.toMatch(/32\.73\.09\.1001.*The postal code.*40199.*open/);
    await shot(a.page, "reports-own-open");
  });

  it("the address results carry Report a problem for the region each address resolved to", async () => {
    await a.page.goto(`${ORIGIN}/portal/addresses`);
    await a.page.fill("#addresses", "Jl. Cihapit 12, Cihapit, Bandung Wetan, Kota Bandung");
    await Promise.all([a.page.waitForLoadState("load"), a.page.click("[data-testid=address-submit]")]);
    const link = a.page.locator("[data-testid=address-report]").first();
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe("/portal/report?region=32.73.09.1001");
    await shot(a.page, "addresses-report-link");
  });

  it("an admin decides it in the queue; the reporter sees the answer", async () => {
    b = await newPage();
    await signUp(b.page, budi);
    makeAdmin(budi.email);
    await b.page.goto(`${ORIGIN}/portal/admin`);
    await Promise.all([b.page.waitForURL(/\/portal\/admin\/reports/), b.page.click("[data-testid=admin-reports-link]")]);
    const card = b.page.locator("[data-testid=queue-report]", { hasText: "40199" }).first();
    await card.waitFor();
    await shot(b.page, "reports-queue");
    await card.locator("select[name=status]").selectOption("accepted");
    await card.locator("textarea[name=answer]").fill("Right: Pos Indonesia lists 40199 for Cihapit.");
    await card.locator("input[name=basis]").fill("Pos Indonesia, kodepos list 2026");
    await Promise.all([b.page.waitForURL(/msg=report_decided/), card.locator("[data-testid=queue-decide]").click()]);
    await expect(b.page.locator(".notice.ok").textContent()).resolves.toContain("Decision saved");

    await a.page.goto(`${ORIGIN}/portal/reports`);
    await expect(a.page.locator("[data-testid=own-report]").first().textContent()).resolves.toMatch(/accepted.*Pos Indonesia lists 40199/);
    await shot(a.page, "reports-own-accepted");
    expect(output.text).toMatch(new RegExp(`to ${ani.email.replace(/\./g, "\\.")}: Your report on 32\\.73\\.09\\.1001 was accepted`));
  });

  it("no script errors and no serious accessibility problems on the way", () => {
    expect(problems).toEqual([]);
  });
});
