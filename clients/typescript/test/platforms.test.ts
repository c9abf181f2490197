/**
 * The SDK where it is meant to run besides Node: bundled by esbuild with no Node built-ins, then
 * (1) inside workerd (miniflare, the runtime of Cloudflare Workers) and (2) in a real browser
 * (Chromium's headless shell), each calling the Worker by id and reporting a 404 as ApiError.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { expect, it } from "vitest";
import { unstable_dev } from "wrangler";

const baseUrl = process.env.WILAYAH_BASE_URL;
const apiKey = process.env.WILAYAH_API_KEY;
if (!baseUrl || !apiKey) throw new Error("WILAYAH_BASE_URL / WILAYAH_API_KEY are not set: run clients/test.sh");

// What each runtime runs: the same calls, answering a small JSON report.
const probe = `
import { ApiError, createWilayahClient, getProvinsi } from ${JSON.stringify(join(import.meta.dirname, "..", "src", "index.ts"))};
export async function probe(baseUrl, apiKey) {
  const client = createWilayahClient({ baseUrl, apiKey });
  const { data } = await getProvinsi({ client, path: { id: "32" } });
  let error = null;
  try { await getProvinsi({ client, path: { id: "99" } }); } catch (e) { error = { isApiError: e instanceof ApiError, code: e.code, status: e.status } }
  return { name: data.data.name, error };
}`;
const expected = { name: "Jawa Barat", error: { isApiError: true, code: "NOT_FOUND", status: 404 } };

async function bundle(platform: "browser" | "neutral", extra: string, format: "esm" | "iife") {
  const out = await build({
    stdin: { contents: probe + extra, resolveDir: import.meta.dirname, loader: "ts" },
    bundle: true,
    write: false,
    format,
    platform,
    target: "es2022",
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

it("runs inside workerd (Cloudflare Workers' runtime)", { timeout: 60_000 }, async () => {
  const script = await bundle("neutral", `\nexport default { async fetch(_req, env) { return Response.json(await probe(env.BASE, env.KEY)); } };`, "esm");
  const dir = mkdtempSync(join(tmpdir(), "wilayah-sdk-worker-"));
  writeFileSync(join(dir, "worker.js"), script);
  writeFileSync(join(dir, "wrangler.json"), JSON.stringify({ name: "sdk-probe", main: "worker.js", compatibility_date: "2026-08-01" }));
  const worker = await unstable_dev(join(dir, "worker.js"), {
    config: join(dir, "wrangler.json"),
    vars: { BASE: baseUrl, KEY: apiKey },
    ip: "127.0.0.1",
    experimental: { disableExperimentalWarning: true },
    logLevel: "warn",
  });
  try {
    const res = await worker.fetch("/");
    expect(await res.json()).toEqual(expected);
  } finally {
    await worker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function servePage() {
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>sdk</title>"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

it("runs in a browser (cross-origin, through the API's CORS)", async () => {
  const script = await bundle("browser", "\nglobalThis.__probe = probe;", "iife");
  const pageServer = await servePage();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell", args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    // A page on an origin of its own, so every call is a real cross-origin request with a preflight.
    // Served from loopback for real: Chromium keeps pages of other address spaces off loopback.
    await page.goto(pageServer.url);
    await page.addScriptTag({ content: script });
    const report = await page.evaluate(([b, k]) => (globalThis as unknown as { __probe: (b: string, k: string) => Promise<unknown> }).__probe(b, k), [
      baseUrl,
      apiKey,
    ] as const);
    expect(report).toEqual(expected);
  } finally {
    await browser.close();
    pageServer.close();
  }
}, 60_000);
