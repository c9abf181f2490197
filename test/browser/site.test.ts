/**
 * The front door in a real browser (issue 26): the landing page at desktop and phone widths, its
 * demo with JavaScript (search, a click on the map) and without it (the page answers the forms),
 * keyboard-only use, the guides; each page checked by axe-core (no serious or critical violation)
 * and photographed into test/browser/screenshots/ (git-ignored).
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityProblems, assertBrowser, CHROMIUM, DESKTOP, ORIGIN, overflowAt, PHONE, SHOTS, startSuite, stopSuite } from "./local.ts";

const output = { text: "" };
let worker: ChildProcess | undefined;
let browser: Browser;
const problems: string[] = [];

async function newPage(
  opts: { viewport?: { width: number; height: number }; locale?: string; javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const locale = opts.locale ?? "en-US";
  const context = await browser.newContext({
    viewport: opts.viewport ?? DESKTOP,
    locale,
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    extraHTTPHeaders: { "accept-language": locale },
  });
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`${page.url()}: ${m.text()}`);
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

it("finds the Chromium it drives", () => assertBrowser());

it("the accessibility check finds what it is there for: an image without alt, a nameless button, faint text", async () => {
  const b = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const page = await (await b.newContext({ viewport: DESKTOP })).newPage();
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>Broken on purpose</title></head><body><main><h1>A page</h1>
       <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20"><button></button>
       <p style="color:#999;background:#aaa">faint text</p></main></body></html>`,
    );
    const found = (await accessibilityProblems(page)).join("\n");
    for (const rule of ["image-alt", "button-name", "color-contrast"]) expect(found).toContain(` ${rule} `);
  } finally {
    await b.close();
  }
});

describe("the front door in a browser", () => {
  beforeAll(async () => {
    ({ worker, browser } = await startSuite(output, SHOTS));
  }, 300_000); // the suite's state (a first run loads the seed: minutes), the Worker and Chromium

  afterAll(() => stopSuite({ worker, browser }));

  it("the landing page at desktop and phone widths, in both languages", async () => {
    const { page } = await newPage();
    await page.goto(`${ORIGIN}/`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Indonesia's administrative regions as an API");
    await shot(page, "site-01-landing-desktop");
    const phone = await newPage({ viewport: PHONE, locale: "id-ID" });
    await phone.page.goto(`${ORIGIN}/`);
    await expect(phone.page.locator("h1").textContent()).resolves.toBe("Wilayah administratif Indonesia sebagai API");
    // Nothing wider than the phone's screen.
    expect(await overflowAt(phone.page)).toEqual([]);
    await shot(phone.page, "site-02-landing-phone");
  });

  it("the demo with JavaScript: search in place, then a click on the map looks the point up", async () => {
    const { page } = await newPage();
    await page.goto(`${ORIGIN}/`);
    await page.fill("#demo-q", "gambir jakarta");
    await page.click("form[data-demo=search] button");
    await expect.poll(() => page.locator("#demo-search-result li").count()).toBeGreaterThan(0);
    await expect(page.locator("#demo-search-result").textContent()).resolves.toContain("Gambir");
    expect(page.url()).toBe(`${ORIGIN}/`); // answered in place, no reload
    // A click at Bandung's place on the map (the map explorer's map, test/browser/map.test.ts).
    await page.waitForSelector('#demo-map-live[data-ready="1"]', { timeout: 30_000 });
    await page.locator("#demo-map-live").scrollIntoViewIfNeeded();
    const at = await page.evaluate<{ x: number; y: number }>(
      "(() => { const p = window.wilayahMap.project([107.62, -6.91]); const box = window.wilayahMap.getContainer().getBoundingClientRect(); return { x: box.left + p.x, y: box.top + p.y }; })()",
    );
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => page.locator("#demo-reverse-result").textContent(), { timeout: 10_000 }).toContain("Jawa Barat");
    expect(Number(await page.inputValue("#demo-lat"))).toBeCloseTo(-6.91, 0);
    await shot(page, "site-03-demo-desktop");
  });

  it("the demo without JavaScript: the page answers its forms", async () => {
    const { page } = await newPage({ javaScriptEnabled: false });
    await page.goto(`${ORIGIN}/`);
    await page.fill("#demo-q", "kab bandung");
    await Promise.all([page.waitForURL(/q=kab\+bandung/), page.click("form[data-demo=search] button")]);
    await expect(page.locator("#demo-search-result").textContent()).resolves.toContain("Kabupaten Bandung");
    await Promise.all([page.waitForURL(/lat=/), page.click("form[data-demo=reverse] button")]);
    await expect(page.locator("#demo-reverse-result").textContent()).resolves.toContain("Cihapit");
  });

  it("keyboard only: a skip link first, then the demo can be reached, filled and sent with keys", async () => {
    const { page } = await newPage();
    await page.goto(`${ORIGIN}/`);
    await page.keyboard.press("Tab");
    await expect(page.evaluate<string>("document.activeElement && document.activeElement.textContent")).resolves.toBe("Skip to content");
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate<boolean>('document.activeElement !== null && document.activeElement.id === "demo-q"');
    }
    expect(reached).toBe(true);
    await page.keyboard.type("jogja");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#demo-search-result li").count()).toBeGreaterThan(0);
  });

  it("the guides and the reference page", async () => {
    const { page } = await newPage();
    await page.goto(`${ORIGIN}/docs/guide`);
    await shot(page, "site-04-guides-desktop");
    await page.click("a[href='/docs/guide/quick-start']");
    await expect(page.locator("h2").first().textContent()).resolves.toContain("Quick start");
    await shot(page, "site-05-guide-page-desktop");
    const phone = await newPage({ viewport: PHONE });
    await phone.page.goto(`${ORIGIN}/docs/guide/regional-data`);
    await shot(phone.page, "site-06-guide-phone");
  });

  it("the sources page (issue 40), from the guides' index, at desktop and phone widths", async () => {
    const { page } = await newPage();
    await page.goto(`${ORIGIN}/docs/guide`);
    await page.click("a[href='/docs/guide/sources']");
    await expect.poll(() => page.url()).toBe(`${ORIGIN}/docs/guide/sources`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Sources and licences");
    await expect(page.locator("#idn-area-data").textContent()).resolves.toContain("Open Database License");
    await shot(page, "site-08-sources-desktop");
    const phone = await newPage({ viewport: PHONE });
    await phone.page.goto(`${ORIGIN}/docs/guide/sources`);
    expect(await overflowAt(phone.page)).toEqual([]);
    await shot(phone.page, "site-08-sources-phone");
  });

  it("the header's Data status link opens a page for people (issue 41), at desktop and phone widths", async () => {
    const { page } = await newPage();
    await page.goto(ORIGIN);
    await page.click("a[href='/status']");
    await expect.poll(() => page.url()).toBe(`${ORIGIN}/status`);
    expect(await page.evaluate<string>("document.contentType")).toBe("text/html");
    expect((await page.locator("h1").textContent())?.length).toBeGreaterThan(0);
    await expect(page.locator("body").textContent()).resolves.toContain("/status");
    await shot(page, "site-07-status-desktop");
    const phone = await newPage({ viewport: PHONE });
    await phone.page.goto(`${ORIGIN}/status`);
    expect(await overflowAt(phone.page)).toEqual([]);
    await shot(phone.page, "site-07-status-phone");
  });

  it("ends with no script error, CSP violation or serious accessibility problem", () => {
    expect(problems).toEqual([]);
  });
});
