/**
 * The landing page's live demo: search and reverse geocoding for visitors without an account. A
 * few results only, limited per client IP (DEMO_LIMITER, the rate-limit binding), metered to no
 * account; every answer says it is a demo. The same services as the API answer.
 */
import { z } from "zod";
import { regionDb } from "../db/client";
import { regionReads } from "../db/reads";
import { validationError } from "../lib/errors";
import { throttle } from "../lib/throttle";
import { LEVELS, parentAt } from "../wilayah/codes";
import { reverseEndpoint } from "../wilayah/geo/endpoints";
import { regionBbox, reverseGeocode } from "../wilayah/geo/service";
import { postalCodesUnder } from "../wilayah/postal/queries";
import { getRegion } from "../wilayah/regions/service";
import { searchEndpoint } from "../wilayah/search/endpoints";
import { search } from "../wilayah/search/service";

/** At most this many results per demo answer. */
export const DEMO_RESULTS = 5;
/** Demo requests per minute per client IP (wrangler.toml: DEMO_LIMITER). */
export const DEMO_PER_MINUTE = 20;

export const demoSearchInput = z.strictObject({ q: searchEndpoint.input.shape.q });
export const demoReverseInput = reverseEndpoint.input;

export function demoNote(): string {
  return `Demo: at most ${DEMO_RESULTS} results, ${DEMO_PER_MINUTE} requests a minute per client, not metered. Create a free API key for the whole API: /portal/signup.`;
}

/** The demo's limit for one client (429 RATE_LIMITED with Retry-After when spent). */
export const demoThrottle = (env: Env, ip: string | undefined) => throttle(env.DEMO_LIMITER, `demo:${ip ?? "unknown"}`, 60);

function parsed<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const r = schema.safeParse(raw);
  if (!r.success) throw validationError("INVALID_QUERY", "parameters", r.error.issues);
  return r.data;
}

export async function demoSearch(env: Env, raw: unknown) {
  const { q } = parsed(demoSearchInput, raw);
  const found = await search(regionDb(env), { q, page: 1, per_page: DEMO_RESULTS, includeInactive: false });
  return {
    demo: true as const,
    note: demoNote(),
    data: found.data.map(({ id, name, level, parent }) => ({ id, name, level, parent })),
    meta: { total: found.meta.total, shown: found.data.length },
  };
}

export async function demoReverse(env: Env, raw: unknown) {
  const { lat, lng } = parsed(demoReverseInput, raw);
  const { data } = await reverseGeocode(regionDb(env), lat, lng);
  return { demo: true as const, note: demoNote(), data };
}

/** Postal codes shown on a region's card at most (a kabupaten/kota has up to a few hundred). */
export const CARD_POSTAL_CODES = 100;

/**
 * The map's region card: the region's record (as GET /wilayah/{id} answers it), its parents' names,
 * the postal codes of its villages (none listed for a provinsi: hundreds) and its bounding box (null
 * without a boundary). Same limit as the demo.
 */
export async function demoRegion(env: Env, rawId: string) {
  const reads = regionReads(env);
  const { data } = await getRegion(reads, rawId);
  const [parents, bbox] = await Promise.all([
    Promise.all(
      LEVELS.slice(0, LEVELS.indexOf(data.level)).map(async (level) => {
        const p = (await getRegion(reads, parentAt(data.id, level), level)).data;
        return { id: p.id, name: p.name, level };
      }),
    ),
    // What the map fits its view to when it shows the region (a search's answer): the whole region, not a point.
    regionBbox(reads.db, data.id),
  ]);
  const postal =
    data.level === "kelurahan"
      ? "postal_code" in data && data.postal_code
        ? [data.postal_code]
        : []
      : data.level === "provinsi"
        ? null
        : await postalCodesUnder(reads.db, data.id, CARD_POSTAL_CODES);
  return { demo: true as const, note: demoNote(), data: { ...data, parents, postal_codes: postal, bbox } };
}
