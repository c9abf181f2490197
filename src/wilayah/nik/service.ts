/** What a NIK (Nomor Induk Kependudukan) encodes. Knows nothing of HTTP; never stores or logs the number. */
import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { regionChain } from "./queries";

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
export function parseNik(
  raw: string,
  today = new Date(),
): { provinsi: string; kabupaten: string; kecamatan: string; birthDate: string; sex: "male" | "female" } {
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

export async function nikRegion(db: RegionDb, raw: string): Promise<{ data: NikAnswer }> {
  const nik = parseNik(raw);
  const chain = await regionChain(db, nik);
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
