/** @jsxImportSource hono/jsx */
/**
 * The guides at /docs/guide: the narrative documentation (docs/api.md, one page per section, and
 * docs/performance.md), rendered from Markdown at build time (scripts/guides.ts -> guides.json) and
 * served inside the site's frame. The HTML is markdown-it's with raw HTML off: it carries no script.
 */
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { raw } from "hono/html";
import { regionReads } from "../db/reads";
import { publicRoute } from "../gate";
import type { BaseEnv } from "../http/context";
import { ApiError } from "../lib/errors";
import { pickLang } from "../portal/i18n";
import { LANG_COOKIE, securityHeaders } from "../portal/session";
import { listSources } from "../wilayah/sources/service";
import { siteCopy } from "./copy";
import guides from "./guides.json";
import { type SiteFrame, SiteLayout } from "./landing";
import { SourcesContent } from "./sources";

const bySlug = new Map(guides.pages.map((p) => [p.slug, p]));

/** The guides themselves (docs/*.md) are English only: their text carries `lang="en"`, the chrome around it the page's language. */
function GuideNav(props: { f: SiteFrame; current: string | null }) {
  return (
    <nav class="guide-nav" aria-label={props.f.t("nav_docs")}>
      {guides.pages.map((p) => (
        <a href={`/docs/guide/${p.slug}`} lang="en" aria-current={p.slug === props.current ? "page" : undefined}>
          {p.title.split(" (")[0]}
        </a>
      ))}
    </nav>
  );
}

/**
 * The guides say `http://localhost:8787` for a local Worker (docs/api.md). Served by a local Worker
 * on another port (npm run dev -- --port N, the suites' Workers), they say the address in use, so a
 * command copied from the page reaches the Worker that served it.
 */
export function localOrigin(html: string, origin: string): string {
  return /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin) ? html.replaceAll("http://localhost:8787", origin) : html;
}

export const guideRoutes = new Hono<BaseEnv>();
guideRoutes.use("*", securityHeaders);

const frameOf = (c: { req: { header(n: string): string | undefined; url: string; path: string } }, cookie: string | undefined): SiteFrame => {
  const lang = pickLang(cookie, c.req.header("accept-language"));
  return { lang, t: siteCopy(lang), path: c.req.path, origin: new URL(c.req.url).origin };
};

guideRoutes.get("/", publicRoute, (c) => {
  const f = frameOf(c, getCookie(c, LANG_COOKIE));
  return c.html(
    <SiteLayout f={f} title={f.t("guides_title")}>
      <div class="guide">
        <h1>{f.t("guides_title")}</h1>
        <GuideNav f={f} current={null} />
        {f.lang === "en" ? null : <p class="muted">{f.t("guides_english")}</p>}
        <div lang="en">{raw(localOrigin(guides.intro, f.origin))}</div>
        <ul lang="en">
          {guides.pages.map((p) => (
            <li>
              <a href={`/docs/guide/${p.slug}`}>{p.title}</a>
            </li>
          ))}
          <li>
            <a href="/docs/guide/sources">Sources and licences</a>
          </li>
        </ul>
        <p>
          {f.t("guides_fields")} <a href="/docs">{f.t("guides_reference")}</a> (<a href="/openapi.json">OpenAPI 3.1</a>).
        </p>
      </div>
    </SiteLayout>,
  );
});

// Generated from the sources table the API reads (src/wilayah/sources), not from docs/*.md: before `/:slug`.
guideRoutes.get("/sources", publicRoute, async (c) => {
  const sources = await listSources(regionReads(c.env));
  const f = frameOf(c, getCookie(c, LANG_COOKIE));
  return c.html(
    <SiteLayout f={f} title={`Sources and licences · ${f.t("guides_title")}`}>
      <div class="guide">
        <GuideNav f={f} current={null} />
        <SourcesContent sources={sources} />
      </div>
    </SiteLayout>,
  );
});

guideRoutes.get("/:slug", publicRoute, (c) => {
  const page = bySlug.get(c.req.param("slug"));
  if (!page) throw new ApiError("NOT_FOUND", `No guide "${c.req.param("slug").slice(0, 40)}". The guides are listed at /docs/guide.`);
  const f = frameOf(c, getCookie(c, LANG_COOKIE));
  return c.html(
    <SiteLayout f={f} title={`${page.title} · ${f.t("guides_title")}`}>
      <div class="guide">
        <GuideNav f={f} current={page.slug} />
        <article lang="en">{raw(localOrigin(page.html, f.origin))}</article>
      </div>
    </SiteLayout>,
  );
});
