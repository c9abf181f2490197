/**
 * BMKG open data adapter: the 3-day forecast (`prakiraan-cuaca`) and the latest earthquake
 * (`autogempa.json`), fetched with a bounded timeout and normalised: numbers as numbers, ISO 8601
 * times with their UTC offset. Malformed answers are upstream errors, never crashes.
 */
import { z } from "zod";
import { ApiError } from "../lib/errors";

export const BMKG_SOURCE = "BMKG (Badan Meteorologi, Klimatologi, dan Geofisika)" as const;
const TIMEOUT_MS = 5_000;

async function getJson(url: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: "application/json", "user-agent": "wilayah-api (+https://github.com/)" },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (e) {
    if ((e as Error)?.name === "TimeoutError") throw new ApiError("UPSTREAM_TIMEOUT", "BMKG did not answer in time.");
    throw new ApiError("UPSTREAM_ERROR", "BMKG could not be reached.");
  }
  if (!res.ok) throw new ApiError("UPSTREAM_ERROR", `BMKG answered HTTP ${res.status}.`);
  try {
    return await res.json();
  } catch {
    throw new ApiError("UPSTREAM_ERROR", "BMKG answered with something that is not JSON.");
  }
}

function parseOrUpstream<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError("UPSTREAM_ERROR", "BMKG answered in an unexpected format.");
  return parsed.data;
}

const num = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)]).transform(Number);
const optNum = num
  .nullable()
  .optional()
  .transform((v) => v ?? null);

const slot = z.object({
  utc_datetime: z.string(),
  local_datetime: z.string(),
  t: num,
  hu: num,
  tcc: optNum,
  tp: optNum,
  weather: optNum,
  weather_desc: z.string().optional(),
  weather_desc_en: z.string().optional(),
  ws: optNum,
  wd: z.string().optional(),
  wd_to: z.string().optional(),
  wd_deg: optNum,
  vs: optNum,
  vs_text: z.string().optional(),
  image: z.string().optional(),
});

const lokasi = z.object({
  adm4: z.string().optional(),
  desa: z.string().optional(),
  kecamatan: z.string().optional(),
  kotkab: z.string().optional(),
  provinsi: z.string().optional(),
  lat: optNum,
  lon: optNum,
  timezone: z.string().optional(),
});

const forecastAnswer = z.object({
  data: z.array(z.object({ lokasi, cuaca: z.array(z.array(slot)) })).min(1),
});

/** "2025-01-14 07:00:00" local + its UTC twin -> "2025-01-14T07:00:00+07:00". */
function isoWithOffset(local: string, utc: string): string | null {
  const l = Date.parse(`${local.replace(" ", "T")}Z`);
  const u = Date.parse(`${utc.replace(" ", "T")}Z`);
  if (Number.isNaN(l) || Number.isNaN(u)) return null;
  const minutes = Math.round((l - u) / 60_000);
  const sign = minutes < 0 ? "-" : "+";
  const hh = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, "0");
  const mm = String(Math.abs(minutes) % 60).padStart(2, "0");
  return `${local.replace(" ", "T")}${sign}${hh}:${mm}`;
}

function normaliseForecast(answer: z.infer<typeof forecastAnswer>) {
  return answer.data.map((d) => ({
    adm4: d.lokasi.adm4 ?? null,
    desa: d.lokasi.desa ?? null,
    kecamatan: d.lokasi.kecamatan ?? null,
    lat: d.lokasi.lat,
    lng: d.lokasi.lon,
    timezone: d.lokasi.timezone ?? null,
    forecast: d.cuaca.flat().map((s) => ({
      time: isoWithOffset(s.local_datetime, s.utc_datetime),
      time_utc: `${s.utc_datetime.replace(" ", "T")}Z`,
      temperature_c: s.t,
      humidity_pct: s.hu,
      cloud_cover_pct: s.tcc,
      precipitation_mm: s.tp,
      weather_code: s.weather,
      weather: s.weather_desc ?? null,
      weather_en: s.weather_desc_en ?? null,
      wind_speed_kmh: s.ws,
      wind_from: s.wd ?? null,
      wind_to: s.wd_to ?? null,
      wind_direction_deg: s.wd_deg,
      visibility_m: s.vs,
      visibility: s.vs_text ?? null,
      icon_url: s.image ?? null,
    })),
  }));
}

/** `adm4` (kelurahan, dotted) or `adm2` (kabupaten, dotted). */
export async function fetchForecast(baseUrl: string, param: "adm4" | "adm2", code: string) {
  const answer = parseOrUpstream(forecastAnswer, await getJson(`${baseUrl.replace(/\/$/, "")}/prakiraan-cuaca?${param}=${encodeURIComponent(code)}`));
  return normaliseForecast(answer);
}

const quakeAnswer = z.object({
  Infogempa: z.object({
    gempa: z.object({
      Tanggal: z.string(),
      Jam: z.string(),
      DateTime: z.string(),
      Coordinates: z.string().regex(/^-?\d+(\.\d+)?,\s*-?\d+(\.\d+)?$/),
      Magnitude: num,
      Kedalaman: z.string().regex(/^\d+(\.\d+)?\s*km$/i),
      Wilayah: z.string(),
      Potensi: z.string().optional(),
      Dirasakan: z.string().optional(),
      Shakemap: z.string().optional(),
    }),
  }),
});

export async function fetchLatestQuake(baseUrl: string) {
  const base = baseUrl.replace(/\/$/, "");
  const g = parseOrUpstream(quakeAnswer, await getJson(`${base}/autogempa.json`)).Infogempa.gempa;
  const [lat, lng] = g.Coordinates.split(",").map((s) => Number(s.trim()));
  const time = new Date(g.DateTime);
  return {
    time: Number.isNaN(time.getTime()) ? null : time.toISOString(),
    local_date: g.Tanggal,
    local_time: g.Jam,
    lat,
    lng,
    magnitude: g.Magnitude,
    depth_km: Number.parseFloat(g.Kedalaman),
    region: g.Wilayah,
    potential: g.Potensi ?? null,
    felt: g.Dirasakan ?? null,
    shakemap_url: g.Shakemap ? `${base}/${g.Shakemap}` : null,
  };
}
