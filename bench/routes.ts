/**
 * What the benchmarks send (`npm run bench`, `npm run bench -- --limits`): the routes with their
 * paths and bodies, the command-line options they read, and the BMKG fixture the weather routes need.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { d1, root, SEED_DIR, sqlString, targetArgs, wrangler } from "../scripts/lib.ts";
import { readEditions } from "../scripts/seed/history-editions.ts";
import { displayParts, generateKeySecret, hashKeySecret } from "../src/keys/secret.ts";
import { levelOf } from "../src/wilayah/codes.ts";
import { STATE } from "./worker.ts";

export const text = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
export const arg = (name: string, fallback: number) => {
  const value = text(name);
  return value === undefined ? fallback : Number(value);
};
/** `--route NAME`: only the routes whose name contains it. */
const ROUTE_FILTER = text("route");
/** Whether a route is one `--route` asks for: its name contains the filter, or one of its `|`-separated parts. */
export const routeWanted = (name: string) => !ROUTE_FILTER || ROUTE_FILTER.split("|").some((part) => name.includes(part));

/**
 * `sameAs`: the REST route this one answers the same question as (MCP): its ratio to that route is printed too.
 * `paths`: a mix, each connection cycling through them (`path` is the first, used to warm).
 */
export type Route = {
  name: string;
  path: string;
  paths?: string[];
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  sameAs?: string;
  /** Keys the requests take in turn instead of the bench's own (publishable keys: each has its own per-minute limit). */
  keys?: () => string[];
};

export const ROUTES: Route[] = [
  { name: "provinsi", path: "/api/v1/wilayah/provinsi" },
  { name: "kelurahan?kecamatan_id", path: "/api/v1/wilayah/kelurahan?kecamatan_id=32.73.09" },
  { name: "by-id (kelurahan)", path: "/api/v1/wilayah/kelurahan/32.73.09.1001" },
  { name: "search?q=bandung", path: "/api/v1/wilayah/search?q=bandung" },
  { name: "search?q=an (worst)", path: "/api/v1/wilayah/search?q=an" },
  { name: "reverse (Bandung village)", path: "/api/v1/wilayah/reverse?lat=-6.90827&lng=107.626971" },
  { name: "reverse (Jakarta, dense)", path: "/api/v1/wilayah/reverse?lat=-6.2&lng=106.8167" },
  { name: "reverse (approximate)", path: "/api/v1/wilayah/reverse?lat=-0.755&lng=100.2409" },
  { name: "reverse (at sea, 404)", path: "/api/v1/wilayah/reverse?lat=-5&lng=100" },
  { name: "boundary (kelurahan)", path: "/api/v1/wilayah/32.73.09.1001/boundary" },
  { name: "boundary (provinsi 32)", path: "/api/v1/wilayah/32/boundary" },
  { name: "kodepos", path: "/api/v1/wilayah/kodepos/40114" },
  { name: "pulau?q=", path: "/api/v1/wilayah/pulau?q=panjang" },
  { name: "nik (never cached)", path: "/api/v1/wilayah/nik/3273094512900001" },
  {
    name: "history (mix of 4 codes)",
    path: "/api/v1/wilayah/91.01/history",
    paths: ["91.01", "92.71.05.1008", "32.73.09.1001", "93.01"].map((c) => `/api/v1/wilayah/${c}/history`),
  },
  {
    name: "changes (mix of 3 filters)",
    path: "/api/v1/wilayah/changes",
    paths: ["", "?from=2015&level=kelurahan&change=recoded&per_page=100&page=20", "?from=2022&to=2022b&level=kecamatan"].map(
      (q) => `/api/v1/wilayah/changes${q}`,
    ),
  },
  {
    name: "convert (1,000 codes)",
    path: "/api/v1/wilayah/convert",
    method: "POST",
    body: JSON.stringify({ codes: convertCodes() }),
    headers: { "content-type": "application/json" },
  },
  { name: "by-id (kabupaten, 2 BPS codes)", path: "/api/v1/wilayah/95.01" },
  // issue 40: what include=sources adds to a by-id call (the plain by-id rows above must not change)
  { name: "by-id (kelurahan, include=sources)", path: "/api/v1/wilayah/32.73.09.1001?include=sources" },
  {
    name: "bps (mix of 3 levels)",
    path: "/api/v1/wilayah/bps/3273",
    paths: ["3273", "3273190", "3273190001"].map((c) => `/api/v1/wilayah/bps/${c}`),
  },
  {
    name: "convert from bps (1,000)",
    path: "/api/v1/wilayah/convert",
    method: "POST",
    body: JSON.stringify({ from: "bps", codes: bpsCodes() }),
    headers: { "content-type": "application/json" },
  },
];

/** 1,000 BPS codes of every level and period, evenly spaced through the crosswalk (seed/sources/wilayah-bps-crosswalk.csv). */
function bpsCodes(): string[] {
  const codes = readFileSync(join(root, "seed", "sources", "wilayah-bps-crosswalk.csv"), "utf8")
    .split("\n")
    .slice(1)
    .filter(Boolean)
    .map((line) => line.split(",")[1]);
  const step = Math.floor(codes.length / 1000);
  return codes.filter((_, i) => i % step === 0).slice(0, 1000);
}

/**
 * 1,000 codes to convert, as a database built in 2022 would hold them: every fifth village code of
 * Papua (91, recoded in 2022b and 2025) and villages, kecamatan and kabupaten from the rest of the
 * 2022 edition, evenly spaced.
 */
function convertCodes(): string[] {
  const codes = [...(readEditions(SEED_DIR).get("2022")?.keys() ?? [])].sort();
  const papua = codes
    .filter((c) => c.startsWith("91.") && levelOf(c) === "kelurahan")
    .filter((_, i) => i % 5 === 0)
    .slice(0, 500);
  const rest = codes.filter((c) => !c.startsWith("91."));
  const step = Math.floor(rest.length / (1000 - papua.length));
  return [...papua, ...rest.filter((_, i) => i % step === 0)].slice(0, 1000);
}

/**
 * Nearby (issue 25): each level at a point in Bandung; kelurahan also at sea with no radius (the walk
 * goes out to the nearest coast), with 50 results, and over a mix of points (half near villages,
 * half anywhere in Indonesia's box, mostly sea; seeded, so every run sends the same). Neighbours at
 * three levels. `--route nearby` / `--route neighb` run them alone.
 */
const AT = "lat=-6.90827&lng=107.626971";
const nearbyMix = (): string[] => {
  let seed = 20251125;
  const random = () => {
    seed = (seed * 16_807) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  // Near villages: around the centres of Java's, Sumatra's and Sulawesi's cities (moved up to about 11 km).
  const towns = [
    [-6.2, 106.82],
    [-6.91, 107.61],
    [-7.25, 112.75],
    [3.59, 98.67],
    [-0.95, 100.35],
    [-5.14, 119.42],
    [-8.65, 115.22],
    [-3.32, 114.59],
  ];
  return Array.from({ length: 40 }, (_, i) => {
    const [lat, lng] = i % 2 ? [-11 + random() * 17, 95 + random() * 46] : towns[(i / 2) % towns.length].map((x) => x + (random() - 0.5) * 0.2);
    return `/api/v1/wilayah/nearby?lat=${lat.toFixed(5)}&lng=${lng.toFixed(5)}`;
  });
};
export const SPACE_ROUTES: Route[] = [
  { name: "nearby kelurahan (Bandung)", path: `/api/v1/wilayah/nearby?${AT}` },
  { name: "nearby kelurahan, limit 50", path: `/api/v1/wilayah/nearby?${AT}&limit=50` },
  { name: "nearby kelurahan (at sea)", path: "/api/v1/wilayah/nearby?lat=-9&lng=100" },
  { name: "nearby kelurahan (40 points)", path: nearbyMix()[0], paths: nearbyMix() },
  { name: "nearby kecamatan", path: `/api/v1/wilayah/nearby?${AT}&level=kecamatan` },
  { name: "nearby kabupaten", path: `/api/v1/wilayah/nearby?${AT}&level=kabupaten` },
  { name: "nearby provinsi", path: `/api/v1/wilayah/nearby?${AT}&level=provinsi` },
  { name: "neighbors (kelurahan)", path: "/api/v1/wilayah/32.73.09.1001/neighbors" },
  { name: "neighbors (kabupaten)", path: "/api/v1/wilayah/32.73/neighbors" },
  { name: "neighbors (provinsi)", path: "/api/v1/wilayah/32/neighbors" },
];

/**
 * Search over the quality set (test/fixtures/search-queries.json, generated from the seed; `--set`
 * another file): the whole mix, then its context queries (a name with its parents), its typo queries
 * (fuzzy) and its names as people write them (name readings: spacing, old spellings, short forms,
 * historic names) alone, so their p99 is seen apart.
 */
const QUALITY: { group: string; q: string }[] = JSON.parse(readFileSync(text("set") ?? join(root, "test", "fixtures", "search-queries.json"), "utf8"));
const searchMix = (name: string, groups: string[] | null): Route[] => {
  const paths = QUALITY.filter((t) => !groups || groups.includes(t.group)).map((t) => `/api/v1/wilayah/search?q=${encodeURIComponent(t.q)}`);
  return paths.length > 0 ? [{ name, path: paths[0], paths }] : [];
};
export const SEARCH_MIXES: Route[] = [
  ...searchMix(`search mix (${QUALITY.length} queries)`, null),
  ...searchMix("search context (parent)", ["parent"]),
  ...searchMix("search fuzzy (typo)", ["typo"]),
  ...searchMix("search names (readings)", ["spacing", "spelling", "short-form", "historic"]),
];

/** Stateless MCP: one JSON-RPC tools/call per HTTP request, as an agent client sends it. */
export const MCP_SEARCH: Route = {
  name: "MCP tools/call wilayah_search",
  sameAs: "search?q=bandung",
  path: "/mcp",
  method: "POST",
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wilayah_search", arguments: { q: "bandung" } } }),
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
};

/**
 * Addresses (issue 24): one address complete, one with a typo in the village name, one holding a
 * code of an earlier edition (read through the region history: one statement more), a mix of the
 * quality set's addresses one per request (every 8th of test/fixtures/address-set.json, every
 * style; until the former_code style was added, 195 of 13 styles), and a batch of 100 of them
 * (every 15th) in one POST. `--route address` runs them alone.
 */
const addressPath = (q: string) => `/api/v1/wilayah/address?q=${encodeURIComponent(q)}`;
const addressTexts = (fixture: string): string[] =>
  (JSON.parse(readFileSync(join(root, "test", "fixtures", fixture), "utf8")) as { text: string }[]).map((c) => c.text);

/** A set's addresses one per request (every `every`th: `mixName(n)`) and 100 of them (every `batchEvery`th) in one POST. */
function addressMixes(texts: string[], every: number, mixName: (n: number) => string, batchEvery: number, batchName: string): Route[] {
  const mix = texts.filter((_, i) => i % every === 0);
  return [
    { name: mixName(mix.length), path: addressPath(mix[0]), paths: mix.map(addressPath) },
    {
      name: batchName,
      path: "/api/v1/wilayah/address",
      method: "POST",
      body: JSON.stringify({ addresses: texts.filter((_, i) => i % batchEvery === 0).slice(0, 100) }),
      headers: { "content-type": "application/json" },
    },
  ];
}

export const ADDRESS_ROUTES: Route[] = [
  { name: "address (complete)", path: addressPath("Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung, Jawa Barat 40111") },
  { name: "address (typo)", path: addressPath("Jl. Sekolah No. 103, Sngai Tabuk Kota, Kec. Sungai Tabuk, Banjar, Kalimantan Selatan 70653") },
  { name: "address (code of 2022)", path: addressPath("Desa Yowied (9101152001), Kec. Tubang, Kab. Merauke") },
  ...addressMixes(addressTexts("address-set.json"), 8, (n) => `address mix (${n} of the set)`, 15, "address batch of 100 (POST)"),
  /*
   * Real writing (issue 35): the school list's development set (test/fixtures/address-world.json,
   * never the held-out one), every 25th one per request, and 100 of them (every 30th) in one POST:
   * named regions, labelled kecamatan, second and third rounds as real addresses need them.
   */
  ...addressMixes(addressTexts("address-world.json"), 25, (n) => `address real (${n} schools)`, 30, "address real batch of 100"),
];

/** BMKG cannot be reached from here: these run on a cache warmed with a fixture (warmBmkgCache). */
export const BMKG_ROUTES: Route[] = [
  { name: "cuaca?adm4 (warm cache)", path: "/api/v1/cuaca?adm4=32.73.09.1001" },
  { name: "gempa/terkini (warm cache)", path: "/api/v1/gempa/terkini" },
];

/**
 * Puts BMKG-shaped payloads into the local KV under the keys the Worker reads, stamped fresh for
 * the length of the run. A benchmark fixture only: it measures our path, not BMKG.
 */
export function warmBmkgCache() {
  const fetchedAt = Date.now() + 3_600_000;
  const slot = (h: number) => ({
    time: `2026-11-22T${String(h).padStart(2, "0")}:00:00+07:00`,
    time_utc: "",
    temperature_c: 27,
    humidity_pct: 80,
    cloud_cover_pct: 50,
    precipitation_mm: 0,
    weather_code: 3,
    weather: "Berawan",
    weather_en: "Mostly Cloudy",
    wind_speed_kmh: 8,
    wind_from: "SE",
    wind_to: "NW",
    wind_direction_deg: 134,
    visibility_m: 9000,
    visibility: "< 10 km",
    icon_url: null,
  });
  const entries = {
    "bmkg:cuaca:adm4:32.73.09.1001": [
      {
        adm4: "32.73.09.1001",
        desa: "Cihapit",
        kecamatan: "Bandung Wetan",
        lat: -6.9,
        lng: 107.62,
        timezone: "Asia/Jakarta",
        forecast: Array.from({ length: 24 }, (_, i) => slot(i % 24)),
      },
    ],
    "bmkg:gempa:terkini": {
      time: "2026-11-21T06:41:52.000Z",
      local_date: "21 Nov 2026",
      local_time: "13:41:52 WIB",
      lat: -6.89,
      lng: 109.67,
      magnitude: 5.1,
      depth_km: 10,
      region: "bench fixture",
      potential: null,
      felt: null,
      shakemap_url: null,
    },
  };
  for (const [key, payload] of Object.entries(entries)) {
    wrangler(["kv", "key", "put", "--binding", "KV", ...targetArgs({ persistTo: STATE }), key, JSON.stringify({ fetchedAt, payload })], { capture: true });
  }
}

/** The paths a route sends (a mix: each of its paths once). */
/**
 * Vector tiles (issue 38): a map's worth of zoom-12 tiles around Bandung (5 x 5, each connection
 * cycling through them) and the densest zoom-10 tile (western Java's villages), with the key.
 */
export const TILE_ROUTES: Route[] = [
  {
    name: "tile z12 (mix of 25)",
    path: "/tiles/12/3270/2126.mvt",
    paths: Array.from({ length: 25 }, (_, i) => `/tiles/12/${3268 + (i % 5)}/${2124 + Math.floor(i / 5)}.mvt`),
    headers: { "accept-encoding": "gzip" },
  },
  { name: "tile z10 (largest)", path: "/tiles/10/820/531.mvt", headers: { "accept-encoding": "gzip" } },
];

export const pathsOf = (r: Route) => r.paths ?? [r.path];

/** The origin the publishable keys of the bench allow, sent as Origin with their requests. */
const BENCH_ORIGIN = "https://bench.example";
/**
 * Publishable keys (issue 38) made once in the bench's state for its development user, on the
 * largest per-key rate (600 a minute): 100 of them taken in turn keep each under its own limit at
 * the bench's rates, so the figure is the key check's, not the limiter's 429.
 */
let publishable: string[] | undefined;
async function makePublishableKeys(): Promise<string[]> {
  const file = join(STATE, "publishable-keys");
  const target = { persistTo: STATE };
  const made = d1("SELECT count(*) AS n FROM api_keys WHERE name = 'bench publishable' AND revoked_at IS NULL", target)[0]?.n;
  if (existsSync(file) && made === 100) return readFileSync(file, "utf8").trim().split("\n");
  d1("DELETE FROM api_keys WHERE name = 'bench publishable'", target);
  const [user] = d1("SELECT id FROM users WHERE email = 'dev@localhost'", target);
  if (!user) throw new Error("no development user in the bench's state (scripts/dev.ts --no-serve makes it)");
  const secrets = Array.from({ length: 100 }, () => generateKeySecret("publishable"));
  const rows = await Promise.all(
    secrets.map(async (secret, i) => {
      const { prefix, last4 } = displayParts(secret);
      return `(${sqlString(`key_benchpub${i}`)}, ${sqlString(String(user.id))}, 'bench publishable', ${sqlString(prefix)}, ${sqlString(last4)}, ${sqlString(await hashKeySecret(secret))}, ${Date.now()}, 'publishable', ${sqlString(JSON.stringify([BENCH_ORIGIN]))}, 600)`;
    }),
  );
  d1(
    `INSERT INTO api_keys (id, user_id, name, prefix, last4, key_hash, created_at, kind, allowed_origins, rate_limit_per_minute) VALUES ${rows.join(", ")}`,
    target,
  );
  writeFileSync(file, `${secrets.join("\n")}\n`, { mode: 0o600 });
  return secrets;
}
export async function preparePublishableKeys(): Promise<void> {
  publishable = await makePublishableKeys();
}

/** The zoom-12 tile mix with publishable keys from a page of their allowed origin: the key check of a browser's map. */
TILE_ROUTES.push({
  name: "tile z12 (publishable keys)",
  path: "/tiles/12/3270/2126.mvt",
  paths: Array.from({ length: 25 }, (_, i) => `/tiles/12/${3268 + (i % 5)}/${2124 + Math.floor(i / 5)}.mvt`),
  headers: { "accept-encoding": "gzip", origin: BENCH_ORIGIN },
  keys: () => {
    if (!publishable) throw new Error("preparePublishableKeys() first");
    return publishable;
  },
});
