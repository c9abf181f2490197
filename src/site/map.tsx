/** @jsxImportSource hono/jsx */
/**
 * The map explorer at `/map` (issue 38): the vector tiles (GET /tiles/...) drawn by MapLibre GL JS,
 * served from the Worker's own assets (/vendor/maplibre/, copied from node_modules by
 * scripts/docs-assets.ts; no CDN). Behaviour in /site/assets/map.js (./map-assets.ts): hover names,
 * a click's region card and reverse geocoding, search that flies to the region, the population
 * density choropleth. The landing page's demo map is the same script on a smaller element.
 *
 * How it authenticates: it does not. The site's map is metered to nobody, signed in or not: its
 * tiles come from this origin's pages without a key (a per-client-IP allowance, MAP_LIMITER) and
 * its lookups from the demo routes (/demo/*, DEMO_LIMITER), as the landing page's demo always did.
 * A signed-in user is not charged for browsing our own site; a map on another site uses a key.
 */
import { formatNumber } from "../portal/i18n";
import { DEMO_PER_MINUTE } from "./demo";
import { type SiteFrame, SiteLayout } from "./landing";
import { MapHead, mapLabels } from "./map-head";

export function MapPage(props: { f: SiteFrame }) {
  const { f } = props;
  return (
    <SiteLayout f={f} title={`${f.t("map_title")} · Wilayah API`} head={<MapHead />}>
      <section class="map-page" aria-labelledby="map-title">
        <h1 id="map-title">{f.t("map_title")}</h1>
        <p class="hint">{f.t("map_intro")}</p>
        <div class="map-tools">
          <form id="map-search" class="row" method="get" action="/">
            <div>
              <label for="map-q">{f.t("map_search_label")}</label>
              <input id="map-q" name="q" type="search" minlength={2} maxlength={100} required placeholder={f.t("map_search_placeholder")} />
            </div>
            <button type="submit">{f.t("map_search")}</button>
          </form>
          <label class="map-toggle">
            <input id="map-density" type="checkbox" /> {f.t("map_density")}
          </label>
        </div>
        <ol id="map-results" class="results" aria-live="polite"></ol>
        <div class="map-wrap">
          <div id="wilayah-map" class="map-canvas" data-wilayah-map="explorer" data-labels={mapLabels(f)}>
            <div id="map-hover" class="map-hover" hidden></div>
          </div>
          <aside id="map-card" class="card map-card" aria-live="polite">
            <p class="muted">{f.t("map_card_empty")}</p>
          </aside>
        </div>
        <div id="map-legend" class="map-legend" hidden>
          <strong>{f.t("map_density_legend")}</strong>
          <ul>
            {[
              ["#ffffcc", `< ${formatNumber(f.lang, 50)}`],
              ["#c7e9b4", formatNumber(f.lang, 50)],
              ["#7fcdbb", formatNumber(f.lang, 100)],
              ["#41b6c4", formatNumber(f.lang, 250)],
              ["#1d91c0", formatNumber(f.lang, 500)],
              ["#225ea8", formatNumber(f.lang, 1000)],
              ["#0c2c84", `${formatNumber(f.lang, 5000)}+`],
            ].map(([color, label]) => (
              <li>
                <span class={`swatch swatch-${color.slice(1)}`}></span> {label}
              </li>
            ))}
          </ul>
        </div>
        <p class="hint">
          {f.t("map_auth_note")} ({DEMO_PER_MINUTE}/min)
        </p>
      </section>
    </SiteLayout>
  );
}
