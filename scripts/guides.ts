/**
 * The guides served at /docs/guide: docs/api.md cut into one page per `##` section (and
 * docs/performance.md as a page of its own), rendered from Markdown with markdown-it (raw HTML off,
 * so a guide can carry no script) at build time, written to src/site/guides.json, which the Worker
 * bundles. Links between sections point at the page that holds the heading; links to repository files
 * that no guide page renders become plain text. Every fenced code sample is listed with its
 * annotation (the words after the language: `sh run`, `json answer GET /path`, ...) for the test
 * that runs them against the Worker (test/site/guides.test.ts). A test checks the committed JSON is
 * this script's output.
 *
 *   npm run docs:guides
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import anchor from "markdown-it-anchor";
import { isMain, root } from "./lib.ts";

export const GUIDES_FILE = join(root, "src", "site", "guides.json");

export type GuidePage = { slug: string; title: string; html: string };
export type GuideSample = { page: string; lang: string; annotation: string; code: string };

/** A heading's slug: its words before any parenthesis, lower case, joined by hyphens. */
export const slugify = (text: string) =>
  text
    .replace(/`/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

const pageSlug = (heading: string) => slugify(heading.split("(")[0]);

type Section = { slug: string; title: string; md: string };

/** docs/api.md's intro and its `##` sections. */
function sections(markdown: string): { intro: string; pages: Section[] } {
  const parts = markdown.split(/^(?=## )/m);
  const intro = parts[0].replace(/^# .*\n/, "");
  const pages = parts.slice(1).map((md) => {
    const heading = md.slice(3, md.indexOf("\n")).trim();
    return { slug: pageSlug(heading), title: heading.replace(/`/g, ""), md };
  });
  return { intro, pages };
}

export function buildGuides(): string {
  const api = sections(readFileSync(join(root, "docs", "api.md"), "utf8"));
  const performance = readFileSync(join(root, "docs", "performance.md"), "utf8");
  const pages: Section[] = [...api.pages, { slug: "performance", title: "Performance", md: performance.replace(/^# .*\n/, "## Performance\n") }];
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false }).use(anchor, { slugify });
  // A code block wider than the page scrolls: it takes the keyboard focus, so it can be scrolled without a mouse.
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => (fence?.(tokens, idx, options, env, self) ?? "").replace(/^<pre>/, '<pre tabindex="0">');
  // Tables too (they scroll when wide, so they take the focus); a column's alignment is a class, not
  // an inline style, which the pages' Content-Security-Policy (style-src 'self') would block.
  md.core.ruler.push("guide_tables", (state) => {
    for (const t of state.tokens) {
      if (t.type === "table_open") t.attrSet("tabindex", "0");
      const align = /^text-align:(left|center|right)$/.exec(String(t.attrGet("style") ?? ""));
      if ((t.type === "th_open" || t.type === "td_open") && align) {
        t.attrs = (t.attrs ?? []).filter(([name]) => name !== "style");
        t.attrSet("class", `align-${align[1]}`);
      }
    }
  });
  // First pass: which page holds each heading id.
  const pageOfAnchor = new Map<string, string>();
  for (const page of pages) {
    for (const t of md.parse(page.md, {})) if (t.type === "heading_open" && t.attrGet("id")) pageOfAnchor.set(t.attrGet("id") as string, page.slug);
  }
  const target = (href: string): string | null => {
    if (/^https?:\/\//.test(href)) return href;
    if (href.startsWith("#")) return pageOfAnchor.has(href.slice(1)) ? `/docs/guide/${pageOfAnchor.get(href.slice(1))}${href}` : null;
    if (/^(\.\/)?api\.md(#.*)?$/.test(href)) return target(href.replace(/^.*api\.md/, "") || "#quick-start");
    if (/^(\.\/)?performance\.md(#.*)?$/.test(href)) return `/docs/guide/performance${href.replace(/^.*performance\.md/, "")}`;
    return null; // a file of the repository: not served, so not a link
  };
  // Pictures the Worker serves as static assets (public/): docs/api.md names them by their path in the
  // repository (../public/docs/x.png, which GitHub shows), the pages by their address (/docs/x.png).
  md.core.ruler.push("guide_images", (state) => {
    for (const block of state.tokens) {
      for (const t of block.children ?? []) {
        const src = String(t.attrGet("src") ?? "");
        if (t.type === "image" && src.startsWith("../public/")) t.attrSet("src", src.slice("../public".length));
      }
    }
  });
  md.core.ruler.push("guide_links", (state) => {
    for (const block of state.tokens) {
      if (!block.children) continue;
      const out: typeof block.children = [];
      let dropping = 0;
      for (const t of block.children) {
        if (t.type === "link_open") {
          const href = target(String(t.attrGet("href") ?? ""));
          if (href === null) {
            dropping++;
            continue;
          }
          t.attrSet("href", href);
        } else if (t.type === "link_close" && dropping > 0) {
          dropping--;
          continue;
        }
        out.push(t);
      }
      block.children = out;
    }
  });
  const samples: GuideSample[] = [];
  const rendered: GuidePage[] = pages.map((page) => {
    for (const t of md.parse(page.md, {})) {
      if (t.type !== "fence") continue;
      const [lang, ...rest] = t.info.trim().split(/\s+/);
      samples.push({ page: page.slug, lang, annotation: rest.join(" "), code: t.content });
    }
    return { slug: page.slug, title: page.title, html: md.render(page.md) };
  });
  const intro = md.render(api.intro);
  return `${JSON.stringify({ intro, pages: rendered, samples }, null, 1)}\n`;
}

if (isMain(import.meta.url)) {
  const json = buildGuides();
  writeFileSync(GUIDES_FILE, json);
  const { pages, samples } = JSON.parse(json) as { pages: GuidePage[]; samples: GuideSample[] };
  console.log(`src/site/guides.json: ${pages.length} pages, ${samples.length} code samples, ${(json.length / 1024).toFixed(0)} KB`);
}
