/**
 * The map explorer in a real browser (issue 38): /map at desktop and phone widths drawing the vector
 * tiles with MapLibre (WebGL in headless Chromium), under the pages' strict CSP; hover shows a name,
 * a click shows the region's card and what lies at the point, the search flies to a region, the
 * density toggle shows its legend; the landing page's demo map is the same map. The tiles are the
 * Worker tests' small archive (Jawa Barat and Sumatera Barat, Kota Bandung's villages). Screenshots
 * in test/browser/screenshots/ (git-ignored); each is checked not to be one flat colour (a style or
 * tile error draws an empty canvas without any script error).
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityProblems, assertBrowser, DESKTOP, ORIGIN, overflowAt, PHONE, SHOTS, startSuite, stopSuite } from "./local.ts";

const BANDUNG: [number, number] = [107.6191, -6.9175];

const output = { text: "" };
let worker: ChildProcess | undefined;
let browser: Browser;
const problems: string[] = [];
const tileStatuses: number[] = [];

async function newPage(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: "en-US", extraHTTPHeaders: { "accept-language": "en-US" } });
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
  page.on("response", (r) => {
    if (/\/tiles\/\d+\/\d+\/\d+\.mvt/.test(r.url())) tileStatuses.push(r.status());
  });
  return page;
}

/** Waits until the map has loaded its style and drawn its tiles. */
async function mapReady(page: Page, selector = "[data-wilayah-map]") {
  await page.waitForSelector(`${selector}[data-ready="1"]`, { timeout: 30_000 });
  // A function, not a string: the page's CSP refuses eval, which a string predicate would need.
  await page.waitForFunction(
    () => {
      const map = (globalThis as unknown as { wilayahMap?: { loaded(): boolean; areTilesLoaded(): boolean } }).wilayahMap;
      return !!map && map.loaded() && map.areTilesLoaded();
    },
    undefined,
    { timeout: 30_000 },
  );
}

/**
 * Distinct colours in a sample of the map canvas' pixels: a blank map has one or two. Read while a
 * frame is drawn (in its render event): a WebGL canvas' pixels are gone once the frame is shown.
 */
async function canvasColours(page: Page): Promise<number> {
  return page.evaluate<number>(`new Promise((resolve) => {
    const map = window.wilayahMap;
    map.once("render", () => {
      const copy = document.createElement("canvas");
      copy.width = 200;
      copy.height = 200;
      const ctx = copy.getContext("2d");
      ctx.drawImage(map.getCanvas(), 0, 0, 200, 200);
      const data = ctx.getImageData(0, 0, 200, 200).data;
      const seen = new Set();
      for (let i = 0; i < data.length; i += 16) seen.add((data[i] >> 3) + "," + (data[i + 1] >> 3) + "," + (data[i + 2] >> 3));
      resolve(seen.size);
    });
    map.triggerRepaint();
  })`);
}

async function shot(page: Page, name: string) {
  // Every page shot at a phone's width is measured: nothing may stick out of 390 px.
  if ((page.viewportSize()?.width ?? 0) <= 400) problems.push(...(await overflowAt(page)));
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
  problems.push(...(await accessibilityProblems(page)));
}

/** A place on the map as a point of the page (for the mouse). */
async function pointOf(page: Page, lngLat: [number, number]) {
  const p = await page.evaluate<{ x: number; y: number }>(
    `(() => { const at = window.wilayahMap.project(${JSON.stringify(lngLat)}); const box = window.wilayahMap.getContainer().getBoundingClientRect(); return { x: box.left + at.x, y: box.top + at.y }; })()`,
  );
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

it("finds the Chromium it drives", () => assertBrowser());

describe("the map explorer in a browser", () => {
  beforeAll(async () => {
    ({ worker, browser } = await startSuite(output, SHOTS));
  }, 300_000); // the suite's state (a first run loads the seed: minutes), the Worker and Chromium

  afterAll(() => stopSuite({ worker, browser }));

  it("draws the boundaries at desktop width, and hover shows a region's name", async () => {
    const page = await newPage();
    await page.goto(`${ORIGIN}/map`);
    await mapReady(page);
    // The tiles came without a key (this site's own allowance), and some held boundaries.
    expect(tileStatuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(await canvasColours(page)).toBeGreaterThan(3);
    await page.evaluate(`window.wilayahMap.jumpTo({ center: ${JSON.stringify(BANDUNG)}, zoom: 7.5 })`);
    await mapReady(page);
    const at = await pointOf(page, BANDUNG);
    await page.mouse.move(at.x + 1, at.y + 1);
    await page.mouse.move(at.x, at.y);
    await expect.poll(() => page.locator("#map-hover").textContent(), { timeout: 10_000 }).toMatch(/\(32\.73\.\d\d\)/);
    await shot(page, "map-01-desktop-hover");
  });

  it("a click shows the region's card and what lies at the point", async () => {
    const page = await newPage();
    await page.goto(`${ORIGIN}/map`);
    await mapReady(page);
    await page.evaluate(`window.wilayahMap.jumpTo({ center: ${JSON.stringify(BANDUNG)}, zoom: 11 })`);
    await mapReady(page);
    const at = await pointOf(page, BANDUNG);
    await page.mouse.click(at.x, at.y);
    const card = page.locator("#map-card");
    await expect.poll(() => card.locator("h2").textContent(), { timeout: 10_000 }).toBeTruthy();
    const text = (await card.textContent()) ?? "";
    expect(text).toContain("Kota Bandung (32.73)");
    expect(text).toContain("Jawa Barat (32)");
    expect(text).toMatch(/Postal codes\s*40\d{3}/);
    expect(text).toContain("At this point");
    expect(await card.locator("a[href^='/api/v1/wilayah/32.73.']").count()).toBe(1);
    // Report a problem with the region shown (the portal's form, issue 40)
    const report = card.locator("a.report-link");
    expect(await report.textContent()).toBe("Report a problem");
    expect(await report.getAttribute("href")).toMatch(/^\/portal\/report\?region=32\.73\./);
    await shot(page, "map-02-desktop-card");
  });

  it("the first view holds the whole country, Aceh to Papua, at desktop and phone widths, in the page's language", async () => {
    for (const viewport of [DESKTOP, PHONE, { width: 1920, height: 600 }]) {
      const page = await newPage(viewport);
      await page.goto(`${ORIGIN}/map`);
      await mapReady(page);
      const [[west, south], [east, north]] = await page.evaluate<number[][]>("window.wilayahMap.getBounds().toArray()");
      // Indonesia's extremes: Pulau Weh / Breueh (95.0 E), the Papua border (141.0 E), Rote (-11.0), Pulau Rondo (6.1 N).
      expect({ viewport, west: west <= 95.0, east: east >= 141.0, south: south <= -11.0, north: north >= 6.1 }).toEqual({
        viewport,
        west: true,
        east: true,
        south: true,
        north: true,
      });
      await page.context().close();
    }
    const id = await browser.newContext({ viewport: DESKTOP, locale: "id-ID", extraHTTPHeaders: { "accept-language": "id-ID" } });
    const page = await id.newPage();
    await page.goto(`${ORIGIN}/map`);
    await mapReady(page);
    // The attribution in the page's language, and the legend's numbers as Indonesian writes them.
    await expect(page.locator(".maplibregl-ctrl-attrib").textContent()).resolves.toContain("batas wilayah dari cahyadsn/wilayah_boundaries");
    await expect(page.locator("#map-legend").textContent()).resolves.toContain("5.000+");
    await id.close();
  });

  it("the search fits the region found in the view and shows its card; the density toggle shows its legend", async () => {
    const page = await newPage();
    await page.goto(`${ORIGIN}/map`);
    await mapReady(page);
    await page.fill("#map-q", "kota bandung");
    await page.click("#map-search button");
    await expect.poll(() => page.locator("#map-card h2").textContent(), { timeout: 15_000 }).toBe("Kota Bandung");
    // Kota Bandung's bounding box, as the API has it: the view holds it whole and it fills much of the view.
    const bbox = ((await (await fetch(`${ORIGIN}/demo/region/32.73`)).json()) as { data: { bbox: number[] } }).data.bbox;
    await expect
      .poll(
        async () => {
          const [[w, s], [e, n]] = await page.evaluate<number[][]>("window.wilayahMap.getBounds().toArray()");
          const holds = w <= bbox[0] && s <= bbox[1] && e >= bbox[2] && n >= bbox[3];
          const share = Math.max((bbox[2] - bbox[0]) / (e - w), (bbox[3] - bbox[1]) / (n - s));
          return holds && share >= 0.5;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const center = await page.evaluate<{ lng: number; lat: number }>("window.wilayahMap.getCenter()");
    expect(center.lng).toBeCloseTo(107.6, 0);
    expect(await page.locator("#map-card").textContent()).toMatch(/Population\s*[\d,]+/);
    await page.check("#map-density");
    await expect(page.locator("#map-legend").isVisible()).resolves.toBe(true);
    await mapReady(page);
    expect(await canvasColours(page)).toBeGreaterThan(3);
    await shot(page, "map-03-desktop-density");
  });

  it("fits a 390 px phone", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${ORIGIN}/map`);
    await mapReady(page);
    expect(await overflowAt(page)).toEqual([]);
    await page.locator("#wilayah-map").scrollIntoViewIfNeeded();
    await shot(page, "map-04-phone");
    expect(await canvasColours(page)).toBeGreaterThan(3);
  });

  it("the landing page's demo map is this map: a click there looks the point up", async () => {
    const page = await newPage();
    await page.goto(`${ORIGIN}/`);
    await mapReady(page, "#demo-map-live");
    expect(await page.locator("#demo-map").count()).toBe(0); // the SVG fallback gave way
    // Too small for 38 province names: hovering names one.
    expect(await page.evaluate("window.wilayahMap.getLayoutProperty('provinsi-label', 'visibility')")).toBe("none");
    await page.locator("#demo-map-live").scrollIntoViewIfNeeded();
    const at = await pointOf(page, BANDUNG);
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => page.locator("#demo-reverse-result").textContent(), { timeout: 10_000 }).toContain("Jawa Barat");
    expect(Number(await page.inputValue("#demo-lat"))).toBeCloseTo(-6.9, 0);
    await page.locator("#demo").scrollIntoViewIfNeeded();
    await shot(page, "map-05-landing-demo");
  });

  it("ends with no script error, CSP violation or serious accessibility problem", () => {
    expect(problems).toEqual([]);
  });
});
