import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { buildGuides, GUIDES_FILE } from "./guides.ts";

it("the committed guides are the build's output from docs/api.md and docs/performance.md (npm run docs:guides)", () => {
  expect(readFileSync(GUIDES_FILE, "utf8"), "run npm run docs:guides after editing docs/api.md or docs/performance.md").toBe(buildGuides());
});

it("renders no raw HTML from the Markdown and keeps every link inside the guides, the site or the web", () => {
  const { pages } = JSON.parse(buildGuides()) as { pages: { html: string }[] };
  for (const p of pages) {
    expect(p.html).not.toMatch(/<script|<style|\son[a-z]+=/i);
    for (const [, href] of p.html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(\/docs\/guide\/[a-z0-9-]+(#[a-z0-9-]*)?|https?:\/\/)/);
  }
});
