/** Islands, postal codes and NIK regions: rules only. Knows nothing of HTTP. */
import { replicaDb } from "../../db/client";
import { type PageMeta, type Paging, pageWindow } from "../../lib/paging";
import { ApiError } from "../../lib/errors";
import { toDottedId } from "../codes";
import { findPulau, listPulau, type PostalVillageRow, type PulauRow, regionChain, villagesByPostalCode } from "./queries";
import { normalizeSearchText } from "../normalize";

// ---------------------------------------------------------------- islands

/** Island ids: `11.01.40001` (regency-level) or `11.00.40001` (province-level), dots optional. */
const ISLAND_DOTTED = /^\d{2}\.\d{2}\.\d{5}$/;
const ISLAND_UNDOTTED = /^\d{9}$/;

export function toIslandId(input: string): string | null {
  const s = input.trim();
  if (ISLAND_DOTTED.test(s)) return s;
  if (ISLAND_UNDOTTED.test(s)) return `${s.slice(0, 2)}.${s.slice(2, 4)}.${s.slice(4)}`;
  return null;
}

export async function listIslands(
  env: Env,
  opts: Paging & { kabupatenId?: string; provinsiId?: string; isPopulated?: boolean; isOutermostSmall?: boolean; q?: string; includeInactive: boolean },
): Promise<{ data: PulauRow[]; meta: PageMeta }> {
  const w = pageWindow(opts);
  let q: string | undefined;
  if (opts.q !== undefined) {
    q = normalizeSearchText(opts.q);
    if ([...q].length < 2) {
      throw new ApiError("INVALID_QUERY", "q must be at least 2 characters (after trimming).", { details: [{ path: "q", message: "at least 2 characters" }] });
    }
  }
  // A filter that is not a well-formed code matches nothing: an empty list, not an error.
  const asFilter = (v: string | undefined) => (v === undefined ? undefined : (toDottedId(v) ?? "-"));
  const { total, rows } = await listPulau(replicaDb(env), {
    kabupatenId: asFilter(opts.kabupatenId),
    provinsiId: asFilter(opts.provinsiId),
    isPopulated: opts.isPopulated,
    isOutermostSmall: opts.isOutermostSmall,
    q,
    includeInactive: opts.includeInactive,
    limit: w.limit,
    offset: w.offset,
  });
  return { data: rows, meta: w.meta(total) };
}

export async function getIsland(env: Env, rawId: string): Promise<{ data: PulauRow }> {
  const id = toIslandId(rawId);
  const row = id ? await findPulau(replicaDb(env), id) : undefined;
  if (!row) throw new ApiError("NOT_FOUND", `No island with id "${rawId}". Island ids look like 11.01.40001 (dots optional).`);
  return { data: row };
}

// ---------------------------------------------------------------- postal codes

export async function villagesOfPostalCode(env: Env, code: string, paging: Paging): Promise<{ data: PostalVillageRow[]; meta: PageMeta }> {
  const postal = code;
  if (!/^\d{5}$/.test(postal)) {
    throw new ApiError("INVALID_QUERY", "A postal code (kode pos) is exactly 5 digits, e.g. 40114.", { details: [{ path: "code", message: "must be 5 digits" }] });
  }
  const w = pageWindow(paging);
  const { total, rows } = await villagesByPostalCode(replicaDb(env), postal, w.limit, w.offset);
  if (total === 0) throw new ApiError("NOT_FOUND", `No kelurahan/desa has the postal code ${postal}.`);
  return { data: rows, meta: w.meta(total) };
}

// ---------------------------------------------------------------- NIK

export type NikAnswer = {
  region_code: string;
  provinsi: { id: string; name: string } | null;
  kabupaten: { id: string; name: string } | null;
  kecamatan: { id: string; name: string } | null;
  birth_date: string;
  sex: "male" | "female";
};

/** A malformed NIK. The message never repeats the number. */
const invalidNik = (why: string) => new ApiError("INVALID_QUERY", `Not a valid NIK: ${why}.`, { details: [{ path: "nik", message: why }] });

/**
 * What a NIK (Nomor Induk Kependudukan) encodes: digits 1-6 the kecamatan where it was issued
 * (provinsi, kabupaten/kota, kecamatan), 7-12 the date of birth as DDMMYY with 40 added to the day
 * for women, 13-16 a serial number. The two-digit year is read as the most recent such year not in
 * the future. Pure: the number is neither stored nor logged.
 */
export function parseNik(raw: string, today = new Date()): { provinsi: string; kabupaten: string; kecamatan: string; birthDate: string; sex: "male" | "female" } {
  const nik = raw;
  if (!/^\d{16}$/.test(nik)) throw invalidNik("a NIK is exactly 16 digits");
  const provinsi = nik.slice(0, 2);
  const kabupaten = `${provinsi}.${nik.slice(2, 4)}`;
  const kecamatan = `${kabupaten}.${nik.slice(4, 6)}`;
  if (nik.slice(2, 4) === "00" || nik.slice(4, 6) === "00") throw invalidNik("digits 3-6 must name a kabupaten/kota and a kecamatan");
  let day = Number(nik.slice(6, 8));
  const month = Number(nik.slice(8, 10));
  const yy = Number(nik.slice(10, 12));
  const sex = day > 40 ? "female" : "male";
  if (day > 40) day -= 40;
  const thisYear = today.getUTCFullYear();
  let year = Math.floor(thisYear / 100) * 100 + yy;
  if (year > thisYear) year -= 100;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || day < 1 || date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) {
    throw invalidNik("digits 7-12 are no valid date of birth (DDMMYY, day + 40 for women)");
  }
  if (nik.slice(12) === "0000") throw invalidNik("the serial number (digits 13-16) cannot be 0000");
  return { provinsi, kabupaten, kecamatan, birthDate: date.toISOString().slice(0, 10), sex };
}

export async function nikRegion(env: Env, raw: string): Promise<{ data: NikAnswer }> {
  const nik = parseNik(raw);
  const chain = await regionChain(replicaDb(env), nik);
  if (!chain.provinsi) throw invalidNik("digits 1-2 are no province code");
  const pick = (r: { id: string; name: string } | undefined) => (r ? { id: r.id, name: r.name } : null);
  return {
    data: {
      region_code: nik.kecamatan,
      provinsi: pick(chain.provinsi),
      kabupaten: pick(chain.kabupaten),
      kecamatan: pick(chain.kecamatan),
      birth_date: nik.birthDate,
      sex: nik.sex,
    },
  };
}
