/**
 * OGC API – Features, Part 1 (Core) and Part 3's queryables (issue 53): the documents GIS tools read
 * (landing page, conformance, collections, queryables, items), one collection per level of regions.
 * The regions come from the wilayah rooms (src/wilayah/geo featurePage: records, boundaries, BPS
 * codes; src/wilayah/sources: provenance). Knows nothing of HTTP: the routes (./routes.ts) choose the
 * encoding, check the caller (./caller.ts) and write the answers; errors are ApiErrors, which the
 * routes answer in the OGC exception format.
 */
import type { RegionDb } from "../db/client";
import type { RegionReads } from "../db/reads";
import { ApiError } from "../lib/errors";
import { LEVELS, type Level, toDottedId } from "../wilayah/codes";
import { featurePage, levelBounds, type RegionFeature } from "../wilayah/geo/service";
import { listSources } from "../wilayah/sources/service";

export const CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";
/** The query parameter a GIS tool may send its key in (./caller.ts); never written into a link. */
export const KEY_PARAM = "api_key";

/** Items per page: the default, and the most a request may ask for (more is 400, as the issue asks). */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
/**
 * A page's GeoJSON stops growing past this many bytes (at least one feature is always answered):
 * the rest follows by its `next` link. Keeps a page of large village boundaries within a Worker's
 * memory and CPU, and a GIS client's page size, whatever `limit` says.
 */
export const PAGE_BYTES = 2 * 1024 * 1024;

/**
 * Douglas-Peucker tolerance (degrees) each level's boundaries are simplified with by default: about
 * 110 m for provinces down to about 11 m for villages, a small fraction of the regions' size;
 * `simplify=0` answers the stored (full) precision.
 */
export const DEFAULT_SIMPLIFY: Record<Level, number> = { provinsi: 0.001, kabupaten: 0.0005, kecamatan: 0.0002, kelurahan: 0.0001 };

export const CONFORMANCE = [
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
  "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables",
  "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters",
];

const TITLES: Record<Level, string> = {
  provinsi: "Provinsi (provinces)",
  kabupaten: "Kabupaten/kota (regencies and cities)",
  kecamatan: "Kecamatan (districts)",
  kelurahan: "Kelurahan/desa (villages)",
};

/** What a property means, for the queryables and the API definition. */
const PROPERTY_ABOUT: Record<string, { type: "string" | "number" | "integer"; about: string }> = {
  code: { type: "string", about: "The Kemendagri code without dots" },
  name: { type: "string", about: "The name (title case)" },
  alt_name: { type: "string", about: "Another name or spelling, empty when none" },
  level: { type: "string", about: "The level: provinsi, kabupaten, kecamatan or kelurahan" },
  type: { type: "string", about: "kabupaten or kota" },
  provinsi_id: { type: "string", about: "The province's code (dotted), e.g. 32" },
  kabupaten_id: { type: "string", about: "The regency's or city's code (dotted), e.g. 32.73" },
  kecamatan_id: { type: "string", about: "The district's code (dotted), e.g. 32.73.09" },
  postal_code: { type: "string", about: "The postal code (kode pos)" },
  lat: { type: "number", about: "Centroid latitude, decimal degrees" },
  lng: { type: "number", about: "Centroid longitude, decimal degrees" },
  bps_code: { type: "string", about: "The newest BPS (statistics bureau) code lying in the region" },
  bps_codes: { type: "string", about: "Every BPS code lying in the region, newest period first, comma-separated" },
  population_male: { type: "integer", about: "Male population" },
  population_female: { type: "integer", about: "Female population" },
  population_total: { type: "integer", about: "Population" },
  area_km2: { type: "number", about: "Area in km²" },
  density_per_km2: { type: "number", about: "Population per km², one decimal" },
};

/** The properties a collection filters on (`?name=value`, Part 1's "filtering by property"): parents' codes, the name, and a few more. */
export const QUERYABLES: Record<Level, readonly string[]> = {
  provinsi: ["name"],
  kabupaten: ["provinsi_id", "name", "type"],
  kecamatan: ["provinsi_id", "kabupaten_id", "name"],
  kelurahan: ["provinsi_id", "kabupaten_id", "kecamatan_id", "name", "postal_code"],
};

export const isCollection = (id: string): id is Level => (LEVELS as readonly string[]).includes(id);

export function collectionOf(id: string): Level {
  if (!isCollection(id))
    throw new ApiError("NOT_FOUND", `No collection "${id.slice(0, 40)}". The collections are ${LEVELS.join(", ")} (GET /ogc/collections).`);
  return id;
}

/** Links in this API: absolute, from the request's origin (`base` is origin + "/ogc"). */
type Link = { href: string; rel: string; type: string; title: string };
const link = (href: string, rel: string, type: string, title: string): Link => ({ href, rel, type, title });
const JSON_TYPE = "application/json";
const GEOJSON = "application/geo+json";
const HTML = "text/html";

export function landingPage(base: string) {
  return {
    title: "Wilayah API: Indonesia's administrative regions",
    description:
      "OGC API – Features of Indonesia's regions: one collection per level (provinsi, kabupaten/kota, kecamatan, kelurahan/desa), each region with its Kemendagri code, name, parents, BPS codes, population and boundary. Items need an API key (x-api-key header, or the api_key query parameter for tools that cannot send one).",
    links: [
      link(base, "self", JSON_TYPE, "This document"),
      link(`${base}?f=html`, "alternate", HTML, "This document as HTML"),
      link(`${base}/api`, "service-desc", "application/vnd.oai.openapi+json;version=3.0", "The API definition (OpenAPI 3.0)"),
      link(`${new URL(base).origin}/docs/guide/qgis-and-gdal`, "service-doc", HTML, "The API documentation (the guide QGIS and GDAL)"),
      link(`${base}/conformance`, "conformance", JSON_TYPE, "Conformance classes"),
      link(`${base}/collections`, "data", JSON_TYPE, "The collections"),
    ],
  };
}

export const conformance = () => ({ conformsTo: CONFORMANCE });

/** What the collections' metadata says of the data: the edition of the code list and the datasets each property comes from. */
export type Provenance = {
  data_version: string;
  edition: { edition: string; regulation: string; date: string | null } | null;
  sources: {
    id: string;
    name: string;
    url: string | null;
    version: string | null;
    licence: string | null;
    licence_url: string | null;
    attribution: string;
    families: string[];
  }[];
};

/** The provenance this API keeps (src/wilayah/sources): the current list's edition and every dataset with its licence and attribution. */
export async function provenance(reads: RegionReads, dataVersion: string): Promise<Provenance> {
  const all = await listSources(reads);
  const list = all.findLast((s) => s.kind === "regulation");
  return {
    data_version: dataVersion,
    edition: list ? { edition: list.edition ?? "", regulation: list.version ?? "", date: list.date } : null,
    sources: all
      .filter((s) => s.kind === "dataset")
      .map((s) => ({
        id: s.id,
        name: s.name,
        url: s.url,
        version: s.version,
        licence: s.licence,
        licence_url: s.licence_url,
        attribution: s.attribution,
        families: s.families,
      })),
  };
}

/** Which source families a level's properties and boundaries come from. */
const LEVEL_FAMILIES: Record<Level, string[]> = {
  provinsi: ["code_name", "coordinates", "boundary", "population_area"],
  kabupaten: ["code_name", "coordinates", "boundary", "population_area", "bps_codes"],
  kecamatan: ["code_name", "coordinates", "boundary", "bps_codes"],
  kelurahan: ["code_name", "coordinates", "boundary", "postal_code", "bps_codes"],
};

const extents = new Map<string, Promise<[number, number, number, number] | null>>();

/** One collection's metadata. `dataKey` keeps the level's extent per loaded data (it changes only with a seed). */
export async function collection(db: RegionDb, base: string, level: Level, p: Provenance, dataKey: string, fgbUrl: string) {
  const key = `${dataKey}:${level}`;
  let extent = extents.get(key);
  if (!extent) {
    extent = levelBounds(db, level);
    extents.set(key, extent);
    extent.catch(() => extents.delete(key));
  }
  const bbox = (await extent) ?? [94.9, -11.1, 141.1, 6.1];
  const sources = p.sources.filter((s) => s.families.some((f) => LEVEL_FAMILIES[level].includes(f)));
  const own = `${base}/collections/${level}`;
  return {
    id: level,
    title: TITLES[level],
    description: `Every current ${level} of Indonesia${p.edition ? ` in the code list of edition ${p.edition.edition} (${p.edition.regulation})` : ""}: id is the Kemendagri code, properties as the by-id answer (GET /api/v1/wilayah/{id}) gives them, flat; boundaries simplified by default (simplify=0: full precision).`,
    extent: { spatial: { bbox: [bbox], crs: CRS84 } },
    itemType: "feature",
    crs: [CRS84],
    storageCrs: CRS84,
    links: [
      link(own, "self", JSON_TYPE, "This collection"),
      link(`${own}?f=html`, "alternate", HTML, "This collection as HTML"),
      link(`${own}/items`, "items", GEOJSON, `The ${level} features`),
      link(`${own}/items?f=html`, "items", HTML, `The ${level} features as HTML`),
      link(`${own}/queryables`, "http://www.opengis.net/def/rel/ogc/1.0/queryables", "application/schema+json", "Properties to filter on"),
      link(fgbUrl, "enclosure", "application/flatgeobuf", `Every ${level} as one FlatGeobuf file with a spatial index (paid plans)`),
      ...[...new Set(sources.map((s) => s.licence_url).filter((u): u is string => !!u))].map((u) => link(u, "license", HTML, "Licence of a source")),
    ],
    // Beyond Part 1 (extra members are allowed): the edition, data version and provenance of what the collection serves.
    data_version: p.data_version,
    edition: p.edition,
    attribution: sources.map((s) => s.attribution).join("; "),
    sources: sources.map(({ families, ...s }) => ({ ...s, covers: families.filter((f) => LEVEL_FAMILIES[level].includes(f)) })),
  };
}

/** Part 3's queryables: a JSON Schema of the properties a collection filters on. */
export function queryables(base: string, level: Level) {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `${base}/collections/${level}/queryables`,
    type: "object",
    title: TITLES[level],
    properties: Object.fromEntries(
      QUERYABLES[level].map((q) => [
        q,
        {
          title: q,
          type: PROPERTY_ABOUT[q].type,
          description: `${PROPERTY_ABOUT[q].about}.${q === "name" ? " Case-insensitive; * matches any characters (name=Suka*)." : " Exact."}`,
        },
      ]),
    ),
    additionalProperties: false,
  };
}

export const propertyAbout = (p: string) => PROPERTY_ABOUT[p];

// ---------------------------------------------------------------- items: the query parameters

export type ItemsQuery = {
  limit: number;
  after?: string;
  bbox?: [number, number, number, number];
  simplify: number;
  filters: Record<string, string>;
};

const bad = (message: string, path: string) => new ApiError("INVALID_QUERY", message, { details: [{ path, message }] });

/** Parameters every route of the API takes: the encoding and the key. */
const COMMON_PARAMS = ["f", KEY_PARAM];
const ITEMS_PARAMS = ["limit", "bbox", "bbox-crs", "crs", "after", "simplify"];

/** Unknown parameters are 400 (OGC API – Features /req/core/query-param-unknown), naming what the route takes. */
export function refuseUnknown(query: Record<string, string[]>, allowed: readonly string[]): void {
  const unknown = Object.keys(query).filter((k) => !COMMON_PARAMS.includes(k) && !allowed.includes(k));
  if (unknown.length) {
    throw bad(
      `Unknown query parameter: ${unknown.map((k) => k.slice(0, 40)).join(", ")}. This resource takes ${[...allowed, ...COMMON_PARAMS].join(", ")}.`,
      unknown[0],
    );
  }
  for (const [k, v] of Object.entries(query)) if (v.length > 1) throw bad(`${k.slice(0, 40)} was given more than once.`, k);
}

const one = (query: Record<string, string[]>, name: string) => query[name]?.[0];

function crsParam(query: Record<string, string[]>, name: string): void {
  const v = one(query, name);
  if (v !== undefined && v !== CRS84) throw bad(`${name} must be ${CRS84} (the only CRS served); got "${v.slice(0, 80)}".`, name);
}

/** A box `minLng,minLat,maxLng,maxLat` (or six numbers with heights, which are ignored), CRS84. */
export function parseBbox(text: string): [number, number, number, number] {
  const parts = text.split(",");
  const nums = parts.map((p) => (/^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(p) ? Number(p) : Number.NaN));
  if ((nums.length !== 4 && nums.length !== 6) || nums.some((n) => !Number.isFinite(n))) {
    throw bad(
      `bbox must be four numbers, minLon,minLat,maxLon,maxLat (CRS84, decimal degrees), e.g. bbox=107.5,-7.0,107.8,-6.8; got "${text.slice(0, 80)}".`,
      "bbox",
    );
  }
  const [minLng, minLat, maxLng, maxLat] = nums.length === 4 ? nums : [nums[0], nums[1], nums[3], nums[4]];
  if (Math.abs(minLng) > 180 || Math.abs(maxLng) > 180 || Math.abs(minLat) > 90 || Math.abs(maxLat) > 90) {
    throw bad("bbox: longitudes must lie within -180..180 and latitudes within -90..90.", "bbox");
  }
  if (minLat > maxLat)
    throw bad(`bbox: the southern edge (${minLat}) is north of the northern edge (${maxLat}); the order is minLon,minLat,maxLon,maxLat.`, "bbox");
  // A box across the antimeridian (minLon > maxLon): of Indonesia (94..142 E) it holds the part east of minLon, or west of maxLon.
  if (minLng > maxLng)
    return maxLng >= 94 && minLng <= 142 ? [-180, minLat, 180, maxLat] : minLng <= 142 ? [minLng, minLat, 180, maxLat] : [-180, minLat, maxLng, maxLat];
  return [minLng, minLat, maxLng, maxLat];
}

/** The items' parameters: limit (1..MAX_LIMIT), bbox, simplify, after (the next link's cursor), the level's queryables. */
export function itemsQuery(level: Level, query: Record<string, string[]>): ItemsQuery {
  refuseUnknown(query, [...ITEMS_PARAMS, ...QUERYABLES[level]]);
  crsParam(query, "crs");
  crsParam(query, "bbox-crs");
  const limitText = one(query, "limit");
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    if (!/^\d{1,9}$/.test(limitText) || Number(limitText) < 1)
      throw bad(`limit must be a whole number from 1 to ${MAX_LIMIT}; got "${limitText.slice(0, 20)}".`, "limit");
    limit = Number(limitText);
    if (limit > MAX_LIMIT) throw bad(`limit ${limit} is over the maximum of ${MAX_LIMIT} items a page; follow the next link for more.`, "limit");
  }
  const simplifyText = one(query, "simplify");
  let simplify = DEFAULT_SIMPLIFY[level];
  if (simplifyText !== undefined) {
    simplify = /^\d+(\.\d+)?$/.test(simplifyText) ? Number(simplifyText) : Number.NaN;
    if (!(simplify >= 0 && simplify <= 1))
      throw bad(`simplify must be a tolerance in degrees from 0 (full precision) to 1; got "${simplifyText.slice(0, 20)}".`, "simplify");
  }
  const afterText = one(query, "after");
  const after = afterText === undefined ? undefined : (toDottedId(afterText) ?? undefined);
  if (afterText !== undefined && after === undefined)
    throw bad(`after must be a region code (the next link carries it); got "${afterText.slice(0, 40)}".`, "after");
  const bboxText = one(query, "bbox");
  const filters: Record<string, string> = {};
  for (const q of QUERYABLES[level]) {
    const v = one(query, q);
    if (v === undefined) continue;
    if (v.length === 0 || v.length > 40) throw bad(`${q} must be 1 to 40 characters.`, q);
    filters[q] = v;
  }
  return { limit, after, bbox: bboxText === undefined ? undefined : parseBbox(bboxText), simplify, filters };
}

/** The filters as the region query reads them; undefined when they can match nothing (a malformed code, a box outside Indonesia). */
function featureFilter(level: Level, q: ItemsQuery) {
  const ancestors = QUERYABLES[level].filter((k) => k.endsWith("_id") && q.filters[k] !== undefined);
  let ancestor: string | undefined;
  for (const k of ancestors) {
    const code = toDottedId(q.filters[k]);
    // A code of the wrong level, or two ancestors that disagree, match nothing: an empty page, as a list filter does.
    if (!code || code.length !== { provinsi_id: 2, kabupaten_id: 5, kecamatan_id: 8 }[k]) return undefined;
    if (ancestor && !(code.startsWith(ancestor) || ancestor.startsWith(code))) return undefined;
    if (!ancestor || code.length > ancestor.length) ancestor = code;
  }
  const name = q.filters.name;
  const namePattern = name === undefined ? undefined : name.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll("*", "%");
  // D1 refuses a LIKE pattern over 50 bytes (a failed query, not an empty page): refused here first.
  if (namePattern !== undefined && new TextEncoder().encode(namePattern).length > 50)
    throw bad("name is too long for a pattern (at most 50 bytes once % _ \\ are escaped).", "name");
  let bbox = q.bbox;
  if (bbox) {
    // Clipped to the regions' grid (Indonesia with a margin): a box elsewhere selects nothing.
    bbox = [Math.max(bbox[0], 94), Math.max(bbox[1], -12), Math.min(bbox[2], 142), Math.min(bbox[3], 7)];
    if (bbox[0] > bbox[2] || bbox[1] > bbox[3]) return undefined;
  }
  return { ancestor, namePattern, type: q.filters.type, postalCode: q.filters.postal_code, bbox };
}

// ---------------------------------------------------------------- items: the page

export type ItemsPage = {
  /** The FeatureCollection, serialized (its size is what the page budget counts). */
  json: string;
  numberMatched: number;
  numberReturned: number;
  /** The next page's link (query string without the key), when there is one. */
  next: string | null;
  features: RegionFeature[];
};

/**
 * A page of items. Features are added while the page stays within PAGE_BYTES (one at least), so
 * `numberReturned` may be below `limit`; `next` (a link to the same query after the page's last id)
 * is there whenever features remain. The query string of the links keeps every parameter but the key.
 */
export async function itemsPage(
  db: RegionDb,
  base: string,
  level: Level,
  q: ItemsQuery,
  query: Record<string, string[]>,
  timeStamp: string,
): Promise<ItemsPage> {
  const filter = featureFilter(level, q);
  // One more than the page holds: whether a next page exists is then known, not guessed.
  const { matched, features } = filter
    ? await featurePage(db, level, filter, { after: q.after, limit: q.limit + 1, simplify: q.simplify })
    : { matched: 0, features: [] };
  const parts: string[] = [];
  let bytes = 0;
  for (const f of features.slice(0, q.limit)) {
    const text = JSON.stringify(f);
    if (parts.length > 0 && bytes + text.length > PAGE_BYTES) break;
    parts.push(text);
    bytes += text.length + 1;
  }
  const returned = parts.length;
  const last = features[returned - 1];
  const remains = features.length > returned;
  const keep = (extra: Record<string, string>) => {
    const params = new URLSearchParams();
    for (const [k, vs] of Object.entries(query)) if (k !== KEY_PARAM && k !== "after" && k !== "f") for (const v of vs) params.append(k, v);
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    const s = params.toString();
    return `${base}/collections/${level}/items${s ? `?${s}` : ""}`;
  };
  const next = remains ? keep({ after: last.id }) : null;
  const links: Link[] = [
    link(keep(q.after ? { after: q.after } : {}), "self", GEOJSON, "This page"),
    link(keep({ ...(q.after ? { after: q.after } : {}), f: "html" }), "alternate", HTML, "This page as HTML"),
    link(`${base}/collections/${level}`, "collection", JSON_TYPE, "The collection"),
    ...(next ? [link(next, "next", GEOJSON, "The next page")] : []),
  ];
  const head = `{"type":"FeatureCollection","timeStamp":${JSON.stringify(timeStamp)},"numberMatched":${matched},"numberReturned":${returned},"links":${JSON.stringify(links)},"features":[`;
  return { json: `${head}${parts.join(",")}]}`, numberMatched: matched, numberReturned: returned, next, features: features.slice(0, returned) };
}

/** One item by its code (dotted or not): a current region of the collection's level, else NOT_FOUND. */
export async function item(db: RegionDb, level: Level, rawId: string, simplify: number): Promise<RegionFeature> {
  const id = toDottedId(rawId);
  const { features } = id ? await featurePage(db, level, { id }, { limit: 1, simplify }) : { features: [] };
  if (!features[0]) {
    throw new ApiError(
      "NOT_FOUND",
      `No current ${level} with code "${rawId.slice(0, 40)}" in this collection. A retired code or one of another level: GET /api/v1/wilayah/{id} tells what it is.`,
    );
  }
  return features[0];
}

/** The item's parameters: simplify only (and f, the key). */
export function itemQuery(level: Level, query: Record<string, string[]>): number {
  refuseUnknown(query, ["simplify", "crs"]);
  crsParam(query, "crs");
  return itemsQuery(level, { ...(query.simplify ? { simplify: query.simplify } : {}) }).simplify;
}
