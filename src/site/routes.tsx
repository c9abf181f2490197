/** @jsxImportSource hono/jsx */
/**
 * The front door: the landing page at `/`, its live demo's JSON routes (`/demo/*`), the data's
 * status (`/status`), and the language toggle. Public: no account, no metering; the demo is limited
 * per client IP. Same headers as the portal (CSP without inline script or style).
 */
import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import manifest from "../../seed/manifest.json";
import { listPlans } from "../billing/service";
import { regionDb } from "../db/client";
import { gate, mintMapToken, publicRoute } from "../gate";
import { wantsHtml } from "../http/accept";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { requestOrigin } from "../keys/publishable";
import { ApiError } from "../lib/errors";
import { errorText, pickLang } from "../portal/i18n";
import { cookieOptions, LANG_COOKIE, mapSecurityHeaders, securityHeaders } from "../portal/session";
import { loadedDataset } from "../wilayah/dataset/queries";
import { DATA_VERSION } from "../wilayah/version";
import { SITE_CSS, SITE_JS } from "./assets";
import { siteCopy } from "./copy";
import { demoRegion, demoReverse, demoSearch, demoThrottle } from "./demo";
import { type DataFacts, LandingPage, type SiteFrame, StatusPage } from "./landing";
import { MapPage } from "./map";
import { MAP_CSS, MAP_JS } from "./map-assets";

export const siteRoutes = new Hono<BaseEnv>();

const ASSET_HEADERS = { "cache-control": "public, max-age=300", "x-content-type-options": "nosniff" };
siteRoutes.get("/site/assets/site.css", publicRoute, (c) => c.body(SITE_CSS, 200, { ...ASSET_HEADERS, "content-type": "text/css; charset=utf-8" }));
siteRoutes.get("/site/assets/site.js", publicRoute, (c) => c.body(SITE_JS, 200, { ...ASSET_HEADERS, "content-type": "text/javascript; charset=utf-8" }));
siteRoutes.get("/site/assets/map.css", publicRoute, (c) => c.body(MAP_CSS, 200, { ...ASSET_HEADERS, "content-type": "text/css; charset=utf-8" }));
siteRoutes.get("/site/assets/map.js", publicRoute, (c) => c.body(MAP_JS, 200, { ...ASSET_HEADERS, "content-type": "text/javascript; charset=utf-8" }));

const frame = (c: { req: { header(n: string): string | undefined; url: string; path: string } }, cookie: string | undefined): SiteFrame => {
  const lang = pickLang(cookie, c.req.header("accept-language"));
  return { lang, t: siteCopy(lang), path: c.req.path, origin: new URL(c.req.url).origin };
};

/** What the seed says about the data (seed/manifest.json, built with it): counts and coverage of the current codes. */
export function dataFacts(): DataFacts {
  const counts = {
    provinsi: manifest.counts.provinsi.active,
    kabupaten: manifest.counts.kabupaten.active,
    kecamatan: manifest.counts.kecamatan.active,
    kelurahan: manifest.counts.kelurahan.active,
  };
  return {
    regulation: DATA_VERSION,
    counts,
    islands: manifest.pulau.active,
    with_coordinates: { filled: manifest.coordinates?.filled ?? 0, total: counts.provinsi + counts.kabupaten + counts.kecamatan + counts.kelurahan },
    villages_with_postal: manifest.postalCodes.filled,
  };
}

const demoResponse = { "cache-control": "private, max-age=60" };

/** The demo's JSON routes: anyone, DEMO_PER_MINUTE a minute per client network (the gate's DEMO_LIMITER). */
const demoGate = gate({ callers: ["anyone"], throttle: "demo" });

siteRoutes.get(
  "/demo/search",
  doc({
    operationId: "demoSearch",
    tags: ["Demo"],
    summary: "Demo search (no key)",
    description:
      "The landing page's demo: search with at most 5 results, limited per client IP, metered to no account. Use /api/v1/wilayah/search with a key for the real thing.",
    caller: "none",
    input: "query",
    parameters: [{ in: "query", name: "q", required: true, schema: { type: "string", minLength: 2, maxLength: 100 } }],
    ok: { description: "A demo answer" },
    errors: ["RATE_LIMITED"],
  }),
  demoGate,
  async (c) => c.json(await demoSearch(c.env, c.req.query()), 200, demoResponse),
);

siteRoutes.get(
  "/demo/reverse",
  doc({
    operationId: "demoReverse",
    tags: ["Demo"],
    summary: "Demo reverse geocoding (no key)",
    description:
      "The landing page's demo: the kelurahan/desa at a point, limited per client IP, metered to no account. Use /api/v1/wilayah/reverse with a key for the real thing.",
    caller: "none",
    input: "query",
    parameters: [
      { in: "query", name: "lat", required: true, schema: { type: "string" } },
      { in: "query", name: "lng", required: true, schema: { type: "string" } },
    ],
    ok: { description: "A demo answer" },
    errors: ["RATE_LIMITED", "NOT_FOUND"],
  }),
  demoGate,
  async (c) => c.json(await demoReverse(c.env, c.req.query()), 200, demoResponse),
);

// The page's CSP and framing rules (the JSON answer gets them too: harmless there).
siteRoutes.use("/status", securityHeaders);
siteRoutes.get(
  "/demo/region/:id",
  doc({
    operationId: "demoRegion",
    tags: ["Demo"],
    summary: "Demo region card (no key)",
    description:
      "The map explorer's region card: the region as GET /api/v1/wilayah/{id} answers it, its parents' names, its villages' postal codes (at most 100; none for a provinsi) and its bounding box (`bbox`, [west, south, east, north]; null without a boundary), limited per client IP, metered to no account.",
    caller: "none",
    parameters: [{ in: "path", name: "id", required: true, schema: { type: "string", maxLength: 20 } }],
    ok: { description: "A demo answer" },
    errors: ["RATE_LIMITED", "NOT_FOUND"],
  }),
  demoGate,
  async (c) => c.json(await demoRegion(c.env, c.req.param("id")), 200, demoResponse),
);

siteRoutes.get(
  "/status",
  doc({
    operationId: "getStatus",
    tags: ["Health"],
    summary: "The data's status",
    description:
      "Which regulation the data follows, the seed this deployment was built with and whether D1 holds it, and the counts and coverage of the current codes.",
    caller: "none",
    ok: { description: "The data's status" },
  }),
  publicRoute,
  async (c) => {
    const loaded = await loadedDataset(regionDb(c.env));
    // data_version: what D1 serves (a seed apply changes it before the Worker bundling that seed is deployed)
    const status = {
      data_version: loaded?.version ?? DATA_VERSION,
      seed: { checksum: manifest.checksum, loaded: loaded?.checksum === manifest.checksum },
      ...dataFacts(),
    };
    // One address, two readers: a browser (its Accept names text/html) gets the page, anything else
    // (curl, monitors, the SDKs) the JSON, whose fields are snake_case like the rest of the API.
    const headers = { "cache-control": "public, max-age=60", vary: "accept" };
    if (wantsHtml(c.req.header("accept"))) {
      const f = frame(c, getCookie(c, LANG_COOKIE));
      return c.html(
        <StatusPage f={f} facts={dataFacts()} regulation={manifest.regulation} dataVersion={status.data_version} seed={status.seed} />,
        200,
        headers,
      );
    }
    return c.json({ data: status }, 200, headers);
  },
);

siteRoutes.get("/lang/:lang{en|id}", publicRoute, (c) => {
  setCookie(c, LANG_COOKIE, c.req.param("lang"), { ...cookieOptions(c, 365 * 24 * 3600), httpOnly: false });
  const next = c.req.query("next") ?? "/";
  // Only a page of this site: never another one.
  return c.redirect(/^\/(docs\/guide(\/[a-z0-9-]*)?|status|map)?$/.test(next) ? next : "/", 303);
});

// The pages with a map: MapLibre's canvas needs blob: images (its worker is a same-origin file).
siteRoutes.use("/", mapSecurityHeaders);
siteRoutes.use("/map", mapSecurityHeaders);
/** A page with a map carries the site map's token, minted for it (its origin, the client's network). */
const withMap = async (c: Context<BaseEnv>, f: SiteFrame): Promise<SiteFrame> => ({
  ...f,
  map: await mintMapToken(c.env, f.origin, c.req.header("cf-connecting-ip")),
});
siteRoutes.get("/map", publicRoute, async (c) => c.html(<MapPage f={await withMap(c, frame(c, getCookie(c, LANG_COOKIE)))} />));

/** A new token for a map page left open (map.js asks before its token ends); as limited as the tiles themselves. */
siteRoutes.get(
  "/map/token",
  doc({
    operationId: "getMapToken",
    tags: ["Maps"],
    summary: "The site map's token (this site's pages only)",
    description:
      "For this site's own map pages: a token for tiles up to zoom 9 without a key, valid 10 minutes, for the page's origin (Origin or Referer) and the client's network only. Limited like the tiles it grants.",
    caller: "none",
    ok: { description: "The token and when it ends" },
    errors: ["RATE_LIMITED", "FORBIDDEN"],
  }),
  gate({ callers: ["anyone"], throttle: "map" }),
  async (c) => {
    const from = requestOrigin(c.req.header("origin"), c.req.header("referer"));
    const own = new URL(c.req.url).origin;
    if (from !== own) throw new ApiError("FORBIDDEN", "This token is for this site's own map pages.");
    const t = await mintMapToken(c.env, own, c.req.header("cf-connecting-ip"));
    return c.json({ data: { token: t.token, expires_at: new Date(t.expiresAt).toISOString() } }, 200, { "cache-control": "no-store" });
  },
);
siteRoutes.get("/", publicRoute, async (c) => {
  const f = await withMap(c, frame(c, getCookie(c, LANG_COOKIE)));
  const q = c.req.query("q");
  const lat = c.req.query("lat");
  const lng = c.req.query("lng");
  let demo: Parameters<typeof LandingPage>[0]["demo"] = null;
  // The demo's forms work without JavaScript: their answer is this page, under the same limit.
  if (q !== undefined || lat !== undefined || lng !== undefined) {
    const kind = q !== undefined ? "search" : "reverse";
    try {
      await demoThrottle(c.env, c.req.header("cf-connecting-ip"));
      demo =
        kind === "search"
          ? { kind, q: q ?? "", answer: await demoSearch(c.env, { q }) }
          : { kind, lat: lat ?? "", lng: lng ?? "", answer: await demoReverse(c.env, { lat, lng }) };
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      // Shown on the page (200): a form answered with the reason, like the API's error message.
      // In English the API's own message; in Indonesian the portal's words for the code (a validation
      // error: what to check in this form), so the page stays in one language.
      const error =
        f.lang === "en"
          ? e.message
          : e.code === "INVALID_QUERY" || e.code === "VALIDATION_ERROR"
            ? f.t(kind === "search" ? "demo_invalid_search" : "demo_invalid_reverse")
            : errorText(f.lang, e.code, e.message);
      demo = kind === "search" ? { kind, q: q ?? "", error } : { kind, lat: lat ?? "", lng: lng ?? "", error };
    }
  }
  const plans = await listPlans(c.env);
  return c.html(<LandingPage f={f} facts={dataFacts()} regulation={manifest.regulation} plans={plans} demo={demo} />);
});
