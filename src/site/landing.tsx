/** @jsxImportSource hono/jsx */
/**
 * The landing page at `/`: what the API is, a live demo that works without an account (and without
 * JavaScript: its forms are answered by this page), the data and its sources, pricing from the plan
 * catalog, copy-ready examples, links onward. Server-rendered; behaviour from /site/assets/site.js.
 */

import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { z } from "zod";
import type { planSchema } from "../billing/schemas";
import { formatIdr, formatNumber, type Lang } from "../portal/i18n";
import { planFeatures } from "../portal/plan-copy";
import { LEVELS } from "../wilayah/codes";
import type { SiteT } from "./copy";
import { DEMO_PER_MINUTE, DEMO_RESULTS, type demoReverse, type demoSearch } from "./demo";
import { examples } from "./examples";
import map from "./map.json";
import { MapHead, mapLabels } from "./map-head";

type Plan = z.infer<typeof planSchema>;

/** `map`: the site map's token, on the pages with a map (src/gate/map-token.ts). */
export type SiteFrame = { lang: Lang; t: SiteT; path: string; origin: string; map?: { token: string; expiresAt: number } };

export type DataFacts = {
  regulation: string;
  counts: { provinsi: number; kabupaten: number; kecamatan: number; kelurahan: number };
  islands: number;
  with_coordinates: { filled: number; total: number };
  villages_with_postal: number;
};

type Demo =
  | { kind: "search"; q: string; answer?: Awaited<ReturnType<typeof demoSearch>>; error?: string }
  | { kind: "reverse"; lat: string; lng: string; answer?: Awaited<ReturnType<typeof demoReverse>>; error?: string };

/** The frame shared by the landing page and the guides: header with links and the language toggle, footer with sources. */
export function SiteLayout(props: { f: SiteFrame; title: string; head?: Child; children?: Child }) {
  const { f } = props;
  const other: Lang = f.lang === "en" ? "id" : "en";
  return (
    <>
      {raw("<!doctype html>")}
      <html lang={f.lang}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="description" content={f.t("lead")} />
          <title>{props.title}</title>
          <link rel="stylesheet" href="/portal/assets/app.css" />
          <link rel="stylesheet" href="/site/assets/site.css" />
          <script src="/portal/assets/app.js" defer></script>
          <script src="/site/assets/site.js" defer></script>
          {props.head}
        </head>
        <body>
          <a class="skip" href="#main">
            {f.lang === "en" ? "Skip to content" : "Langsung ke isi"}
          </a>
          <header class="top">
            <div class="bar">
              <a class="brand" href="/">
                Wilayah API
              </a>
              <nav aria-label={f.lang === "en" ? "Main" : "Utama"}>
                <a href="/docs/guide">{f.t("nav_docs")}</a>
                <a href="/map">{f.t("nav_map")}</a>
                <a href="/docs">{f.t("nav_reference")}</a>
                <a href="/#pricing">{f.t("nav_pricing")}</a>
                <a href="/status">{f.t("nav_status")}</a>
                <a href="/portal">{f.t("nav_portal")}</a>
                <a href={`/lang/${other}?next=${encodeURIComponent(f.path)}`} lang={other} hreflang={other}>
                  {f.t("lang_other")}
                </a>
              </nav>
            </div>
          </header>
          <main id="main">{props.children}</main>
          <footer>
            <p>
              <a href="/docs/guide">{f.t("nav_docs")}</a> · <a href="/docs">{f.t("nav_reference")}</a> · <a href="/openapi.json">OpenAPI</a> ·{" "}
              <a href="/portal">{f.t("nav_portal")}</a> · <a href="/status">{f.t("nav_status")}</a>
            </p>
            <p>
              {f.t("source_regions")} {f.t("source_cahya")} {f.t("source_bmkg")}
            </p>
          </footer>
        </body>
      </html>
    </>
  );
}

function DemoResult(props: { f: SiteFrame; demo: Demo }) {
  const { f, demo } = props;
  if (demo.error) {
    return (
      <div class="notice err" role="alert">
        {demo.error}
      </div>
    );
  }
  if (demo.kind === "search" && demo.answer) {
    const a = demo.answer;
    if (a.data.length === 0) return <p class="muted">{f.t("demo_none")}</p>;
    return (
      <div>
        <ol class="results">
          {a.data.map((r) => (
            <li>
              <strong>{r.name}</strong> <span class="badge">{r.level}</span> <code>{r.id}</code>
              {r.parent ? <div class="muted">{r.parent}</div> : null}
              <a class="report-link" href={`/portal/report?region=${encodeURIComponent(r.id)}`}>
                {f.t("report_problem")}
              </a>
            </li>
          ))}
        </ol>
        {a.meta.total > a.meta.shown ? <p class="muted">{f.t("demo_more", { total: formatNumber(f.lang, a.meta.total), n: a.meta.shown })}</p> : null}
      </div>
    );
  }
  if (demo.kind === "reverse" && demo.answer) {
    const d = demo.answer.data;
    return (
      <dl class="place">
        {d.kelurahan ? (
          <>
            <dt>kelurahan/desa</dt>
            <dd>
              {d.kelurahan.name} <code>{d.kelurahan.id}</code> {d.kelurahan.postal_code ? <span class="muted">{d.kelurahan.postal_code}</span> : null}
            </dd>
          </>
        ) : null}
        <dt>kecamatan</dt>
        <dd>
          {d.kecamatan.name} <code>{d.kecamatan.id}</code>
        </dd>
        <dt>kabupaten/kota</dt>
        <dd>
          {d.kabupaten.name} <code>{d.kabupaten.id}</code>
        </dd>
        <dt>provinsi</dt>
        <dd>
          {d.provinsi.name} <code>{d.provinsi.id}</code>
        </dd>
        {d.approximate ? <dd class="muted">{f.t("demo_approximate")}</dd> : null}
      </dl>
    );
  }
  return null;
}

/** A block of code with a copy button (the button works with JavaScript on; the text is selectable without). */
function CodeBlock(props: { id: string; f: SiteFrame; code: string; label: string }) {
  return (
    <div class="code">
      <div class="code-head">
        <span>{props.label}</span>
        <button type="button" class="secondary small" data-copy={props.id} data-copied={props.f.t("copied")}>
          {props.f.t("copy")}
        </button>
      </div>
      <pre id={props.id} tabindex={0}>
        {props.code}
      </pre>
    </div>
  );
}

/** The data's facts: the regulation, counts, coverage and sources (the landing page and /status). */
function DataSection(props: { f: SiteFrame; facts: DataFacts; regulation: Regulation; children?: Child }) {
  const { f, facts } = props;
  return (
    <section class="card" aria-labelledby="data-title">
      <h2 id="data-title">{f.t("data_title")}</h2>
      <p>
        {f.t(props.regulation.amendments.length ? "data_regulation_amended" : "data_regulation", {
          ...props.regulation,
          amendments: props.regulation.amendments.join(", "),
        })}
      </p>
      <div class="grid facts">
        {LEVELS.map((l) => (
          <div>
            <div class="big">{formatNumber(f.lang, facts.counts[l])}</div>
            <div class="muted">{f.t(`data_level_${l}`)}</div>
          </div>
        ))}
        <div>
          <div class="big">{formatNumber(f.lang, facts.islands)}</div>
          <div class="muted">{f.t("data_islands")}</div>
        </div>
      </div>
      <h3>{f.t("data_coverage")}</h3>
      <ul>
        <li>
          {formatNumber(f.lang, facts.with_coordinates.filled)} / {formatNumber(f.lang, facts.with_coordinates.total)} {f.t("data_coordinates")}
        </li>
        <li>
          {formatNumber(f.lang, facts.villages_with_postal)} / {formatNumber(f.lang, facts.counts.kelurahan)} {f.t("data_postal")}
        </li>
      </ul>
      {props.children}
      <h3>{f.t("data_sources")}</h3>
      <ul>
        <li>{f.t("source_regions")}</li>
        <li>{f.t("source_cahya")}</li>
        <li>{f.t("source_bps")}</li>
        <li>{f.t("source_bmkg")}</li>
      </ul>
    </section>
  );
}

/**
 * `/status` for people (a browser asks for HTML): which data this deployment serves and whether D1
 * holds the seed it was built with, the counts and coverage; the same facts as the JSON answer.
 */
export function StatusPage(props: {
  f: SiteFrame;
  facts: DataFacts;
  regulation: Regulation;
  dataVersion: string;
  seed: { checksum: string; loaded: boolean };
}) {
  const { f } = props;
  return (
    <SiteLayout f={f} title={`Wilayah API · ${f.t("nav_status")}`}>
      <h1>{f.t("nav_status")}</h1>
      <DataSection f={f} facts={props.facts} regulation={props.regulation}>
        <h3>{f.t("status_loaded_title")}</h3>
        <dl class="place">
          <dt>{f.t("status_version")}</dt>
          <dd data-testid="status-version">{versionWords(f, props.dataVersion)}</dd>
          <dt>{f.t("status_seed")}</dt>
          <dd>
            <code class="hash">{props.seed.checksum}</code> {props.seed.loaded ? f.t("status_seed_loaded") : f.t("status_seed_not_loaded")}
          </dd>
        </dl>
        <p class="muted">
          {f.t("status_json")} <code>curl "{f.origin}/status"</code>
        </p>
      </DataSection>
    </SiteLayout>
  );
}

/**
 * The data version (the `x-data-version` identifier, written in English: "<decree> as amended by
 * <decrees> (<source>)") said in the page's language; the JSON answer keeps the identifier as it is.
 */
export function versionWords(f: SiteFrame, version: string): string {
  return version.replace(" as amended by ", ` ${f.t("data_amended_by")} `);
}

/** The regulation the data follows, in parts (seed/manifest.json `regulation`): the line is said in the page's language. */
export type Regulation = { decree: string; amendments: string[]; source: string };

export function LandingPage(props: { f: SiteFrame; facts: DataFacts; regulation: Regulation; plans: Plan[]; demo: Demo | null }) {
  const { f, facts } = props;
  const ex = examples(f.origin);
  const search = props.demo?.kind === "search" ? props.demo : null;
  const reverse = props.demo?.kind === "reverse" ? props.demo : null;
  return (
    <SiteLayout f={f} title={`Wilayah API · ${f.t("title")}`} head={<MapHead />}>
      <section class="hero">
        <h1>{f.t("title")}</h1>
        <p class="lead">{f.t("lead")}</p>
        <p>{f.t("lead2")}</p>
        <p class="cta">
          <a class="button" href="/portal/signup">
            {f.t("get_key")}
          </a>{" "}
          <a class="button secondary" href="#demo">
            {f.t("try_it")}
          </a>
        </p>
      </section>

      <section
        id="demo"
        class="card"
        aria-labelledby="demo-title"
        data-labels={JSON.stringify({ none: f.t("demo_none"), more: f.t("demo_more"), approximate: f.t("demo_approximate"), report: f.t("report_problem") })}
      >
        <h2 id="demo-title">{f.t("demo_title")}</h2>
        <p class="hint">{f.t("demo_note", { n: DEMO_RESULTS, rate: DEMO_PER_MINUTE })}</p>
        <div class="demo-grid">
          <div>
            <h3>{f.t("demo_search")}</h3>
            <form method="get" action="/#demo" class="row" data-demo="search">
              <div>
                <label for="demo-q">{f.t("demo_search_label")}</label>
                <input
                  id="demo-q"
                  name="q"
                  type="search"
                  minlength={2}
                  maxlength={100}
                  required
                  value={search?.q ?? ""}
                  placeholder={f.t("demo_search_placeholder")}
                />
              </div>
              <button type="submit">{f.t("demo_search")}</button>
            </form>
            <div id="demo-search-result" aria-live="polite">
              {search ? <DemoResult f={f} demo={search} /> : null}
            </div>
          </div>
          <div>
            <h3>{f.t("demo_reverse")}</h3>
            {/* The map explorer's map (map.js); the SVG is what shows without JavaScript or WebGL. */}
            <div id="demo-map-live" class="map-canvas demo" data-wilayah-map="demo" data-labels={mapLabels(f)}>
              <svg id="demo-map" class="map" viewBox={map.viewBox} role="img" aria-label={f.t("demo_map_label")} data-box={JSON.stringify(map.box)}>
                {map.provinces.map((p) => (
                  <path d={p.d}>
                    <title>{p.name}</title>
                  </path>
                ))}
              </svg>
            </div>
            <p>
              <a href="/map">{f.t("map_open")}</a>
            </p>
            <form method="get" action="/#demo" class="row" data-demo="reverse">
              <div>
                <label for="demo-lat">{f.t("demo_lat")}</label>
                <input id="demo-lat" name="lat" type="text" inputmode="decimal" required value={reverse?.lat ?? "-6.90827"} />
              </div>
              <div>
                <label for="demo-lng">{f.t("demo_lng")}</label>
                <input id="demo-lng" name="lng" type="text" inputmode="decimal" required value={reverse?.lng ?? "107.626971"} />
              </div>
              <button type="submit">{f.t("demo_go")}</button>
            </form>
            <p class="hint">{f.t("demo_reverse_hint")}</p>
            <div id="demo-reverse-result" aria-live="polite">
              {reverse ? <DemoResult f={f} demo={reverse} /> : null}
            </div>
          </div>
        </div>
      </section>

      <DataSection f={f} facts={facts} regulation={props.regulation} />

      <section id="pricing" aria-labelledby="pricing-title">
        <h2 id="pricing-title">{f.t("pricing_title")}</h2>
        <p class="muted">{f.t("pricing_note")}</p>
        <div class="plans">
          {props.plans.map((pl) => (
            <div class="card plan">
              <h3>{pl.name}</h3>
              <div class="price">
                {pl.price_idr === 0 ? f.t("free") : formatIdr(f.lang, pl.price_idr)} {pl.price_idr === 0 ? null : <span class="muted">{f.t("per_month")}</span>}
              </div>
              <div>
                {formatNumber(f.lang, pl.monthly_quota)} {f.t("calls_month")}
              </div>
              {pl.rate_limit_per_minute ? (
                <div class="muted">
                  {formatNumber(f.lang, pl.rate_limit_per_minute)} {f.t("per_minute")}
                </div>
              ) : null}
              <ul>
                {planFeatures(f.lang, pl).map((x) => (
                  <li>{x}</li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </section>

      <section class="card" aria-labelledby="examples-title">
        <h2 id="examples-title">{f.t("examples_title")}</h2>
        <CodeBlock id="ex-curl" f={f} label={f.t("example_curl")} code={ex.curl} />
        <CodeBlock id="ex-js" f={f} label={f.t("example_js")} code={ex.js} />
        <CodeBlock id="ex-python" f={f} label={f.t("example_python")} code={ex.python} />
        <CodeBlock id="ex-mcp" f={f} label={f.t("example_mcp")} code={ex.mcp} />
        <p class="hint">{f.t("mcp_note")}</p>
      </section>
    </SiteLayout>
  );
}
