/** @jsxImportSource hono/jsx */
/** What a page with a map (/map, the landing page's demo) puts in its head, and the labels map.js reads. */
import { SITE_MAP_MAXZOOM } from "../gate";
import { LEVEL_MINZOOM } from "../tiles/files";
import type { SiteT } from "./copy";

/** What map.js needs to know, in the page's language; with the site map's token (src/gate/map-token.ts), minted for this page. */
export function mapLabels(f: { t: SiteT; lang: string; map?: { token: string; expiresAt: number } }) {
  const keys = [
    "map_card_empty",
    "map_card_code",
    "map_card_parents",
    "map_card_population",
    "map_card_area",
    "map_card_density",
    "map_card_postal",
    "map_card_api",
    "report_problem",
    "map_card_point",
    "map_card_none",
    "map_no_webgl",
    "map_attribution",
    "map_tiles_missing",
    "demo_none",
  ] as const;
  return JSON.stringify({
    ...Object.fromEntries(keys.map((k) => [k, f.t(k)])),
    lang: f.lang,
    minzoom: LEVEL_MINZOOM,
    site_maxzoom: SITE_MAP_MAXZOOM,
    token: f.map?.token ?? null,
    token_expires_at: f.map ? new Date(f.map.expiresAt).toISOString() : null,
  });
}

/** MapLibre's stylesheet and the map's script (a module: it imports MapLibre's module). */
export function MapHead() {
  return (
    <>
      <link rel="stylesheet" href="/vendor/maplibre/maplibre-gl.css" />
      <link rel="stylesheet" href="/site/assets/map.css" />
      <script type="module" src="/site/assets/map.js"></script>
    </>
  );
}
