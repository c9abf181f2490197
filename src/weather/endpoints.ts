/** BMKG weather and earthquake endpoints, declared once for REST and MCP. */
import { z } from "zod";
import { defineEndpoint } from "../data/endpoint";
import { BMKG_SOURCE } from "./bmkg";
import { forecast, latestQuake } from "./service";

const VERSION = "BMKG open data";
const source = z.literal(BMKG_SOURCE).describe("Credit the source: required by BMKG");
const n = z.number().nullable();

const forecastSlot = z.object({
  time: z.string().nullable().describe("Local time, ISO 8601 with UTC offset"),
  time_utc: z.string(),
  temperature_c: z.number(),
  humidity_pct: z.number(),
  cloud_cover_pct: n,
  precipitation_mm: n,
  weather_code: n,
  weather: z.string().nullable().describe("Indonesian description, e.g. Cerah Berawan"),
  weather_en: z.string().nullable(),
  wind_speed_kmh: n,
  wind_from: z.string().nullable(),
  wind_to: z.string().nullable(),
  wind_direction_deg: n,
  visibility_m: n,
  visibility: z.string().nullable(),
  icon_url: z.string().nullable(),
});

const cuacaInput = z.strictObject({
  adm4: z.string().optional().describe("A kelurahan/desa id (e.g. 31.71.03.1001; dots optional): its 3-day forecast"),
  kabupaten_id: z.string().optional().describe("A kabupaten/kota id (e.g. 32.73): forecasts for the places BMKG covers in it"),
});

export const weatherEndpoints = [
  defineEndpoint({
    path: "/cuaca",
    tool: "cuaca",
    description:
      "BMKG weather forecast for the next 3 days in 3-hour steps, for one kelurahan/desa (adm4) or every location BMKG covers in a kabupaten/kota (kabupaten_id). Give exactly one. Use it for the weather of a place you know by its code (find the code with search first). Returns the region, its locations (name, lat/lng, time zone), each with its forecast slots (local and UTC time, temperature in C, humidity %, cloud cover %, precipitation mm, weather in Indonesian and English, wind speed km/h and direction, visibility m), when BMKG was asked, and stale when BMKG failed and this is the last good copy. Unknown region: NOT_FOUND; a place BMKG does not cover: UPSTREAM_ERROR. Data: BMKG; credit it.",
    input: cuacaInput,
    output: z.object({
      data: z.object({
        region: z.object({ id: z.string(), name: z.string(), level: z.string() }),
        locations: z.array(
          z.object({
            adm4: z.string().nullable(),
            desa: z.string().nullable(),
            kecamatan: z.string().nullable(),
            lat: n,
            lng: n,
            timezone: z.string().nullable(),
            forecast: z.array(forecastSlot),
          }),
        ),
        fetched_at: z.string(),
        stale: z.boolean().describe("true when BMKG is failing and this is the last good copy"),
        source,
      }),
    }),
    tag: "Weather",
    errors: ["NOT_FOUND", "UPSTREAM_ERROR", "UPSTREAM_TIMEOUT"],
    cacheSeconds: 0, // cached per region in KV by the service, with a stale fallback
    version: VERSION,
    handler: async (q: z.infer<typeof cuacaInput>, { env }) => ({ data: await forecast(env, q) }),
  }),
  defineEndpoint({
    path: "/gempa/terkini",
    tool: "gempa_terkini",
    description:
      "The latest significant earthquake in Indonesia reported by BMKG. Use it to answer what the most recent earthquake was; it holds one event, not a history. Returns its time (ISO 8601, and BMKG's local date and time), lat/lng, magnitude, depth in km, the region text, tsunami potential, where it was felt, the shakemap URL, when BMKG was asked, and stale when BMKG failed and this is the last good copy. Data: BMKG; credit it.",
    input: z.strictObject({}),
    output: z.object({
      data: z.object({
        time: z.string().nullable(),
        local_date: z.string(),
        local_time: z.string(),
        lat: z.number(),
        lng: z.number(),
        magnitude: z.number(),
        depth_km: z.number(),
        region: z.string(),
        potential: z.string().nullable(),
        felt: z.string().nullable(),
        shakemap_url: z.string().nullable(),
        fetched_at: z.string(),
        stale: z.boolean(),
        source,
      }),
    }),
    tag: "Weather",
    errors: ["UPSTREAM_ERROR", "UPSTREAM_TIMEOUT"],
    cacheSeconds: 0, // cached in KV for a minute by the service
    version: VERSION,
    handler: async (_q, { env }) => ({ data: await latestQuake(env) }),
  }),
];
