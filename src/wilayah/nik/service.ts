/** What a NIK (Nomor Induk Kependudukan) encodes. Knows nothing of HTTP; never stores or logs the number. */
import type { RegionReads } from "../../db/reads";
import { ApiError } from "../../lib/errors";
import { isAtOrBelow, type Level, parentAt } from "../codes";
import { editionList, lastOrd, nameIn } from "../history/service";
import { regionChain, regionChainWithHistory } from "./queries";

type Ref = { id: string; name: string };

export type NikAnswer = {
  region_code: string;
  provinsi: Ref | null;
  kabupaten: Ref | null;
  kecamatan: Ref | null;
  birth_date: string;
  sex: "male" | "female";
  /** True when the NIK's code is of an earlier edition and the regions above are its successors today. */
  recoded: boolean;
  /** The codes and names as issued (the last edition that had the code), when recoded. */
  as_issued: { edition: string; provinsi: Ref | null; kabupaten: Ref | null; kecamatan: Ref | null } | null;
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

/** A code's region at `level` (32.73.09 -> 32, 32.73, 32.73.09), or "" when the code lies above it (no region). */
const regionAt = (code: string | null, level: Level) => (code && isAtOrBelow(code, level) ? parentAt(code, level) : "");

const ref = (r: { id: string; name: string } | undefined | null): Ref | null => (r ? { id: r.id, name: r.name } : null);

/**
 * The regions a NIK names. A kecamatan code of the current list answers as it is. One of an earlier
 * edition (a NIK keeps the code of the year it was issued) answers the current regions that took it
 * over: the deepest current region known to hold all of it (docs/history-method.md, `within`), so
 * the kabupaten is still answered when the kecamatan went to several (or unknown) places; and the
 * codes and names as issued. Two round trips only for such a NIK.
 */
export async function nikRegion(reads: RegionReads, raw: string): Promise<{ data: NikAnswer }> {
  const db = reads.db;
  const nik = parseNik(raw);
  const chain = await regionChainWithHistory(db, nik);
  if (!chain.provinsi && !chain.history.has(nik.provinsi)) throw invalidNik("digits 1-2 are no province code");
  const active = <R extends { is_active: number }>(r: R | undefined) => (r?.is_active === 1 ? r : undefined);
  // the code of a kecamatan of an earlier edition, or (the kecamatan unknown) of a kabupaten no longer current
  const old = active(chain.kecamatan)
    ? undefined
    : (chain.history.get(nik.kecamatan) ?? (active(chain.kabupaten) ? undefined : chain.history.get(nik.kabupaten)));
  if (!old) {
    return {
      data: {
        region_code: nik.kecamatan,
        provinsi: ref(active(chain.provinsi)),
        kabupaten: ref(active(chain.kabupaten)),
        kecamatan: ref(active(chain.kecamatan)),
        birth_date: nik.birthDate,
        sex: nik.sex,
        recoded: false,
        as_issued: null,
      },
    };
  }
  const within = old.within ?? (active(chain.provinsi) ? nik.provinsi : null);
  const [now, editions] = await Promise.all([
    // `within` is a provinsi (93), kabupaten (93.01) or kecamatan (93.01.01) code: its prefixes, and nothing below it
    regionChain(db, { provinsi: regionAt(within, "provinsi"), kabupaten: regionAt(within, "kabupaten"), kecamatan: regionAt(within, "kecamatan") }),
    editionList(reads),
  ]);
  const ord = lastOrd(old.editions);
  // a code without a history row is in every edition under its region row's name
  const issued = (id: string, region: { id: string; name: string } | undefined): Ref | null => {
    const h = chain.history.get(id);
    const name = h ? nameIn(h, ord) : region?.name;
    return name === undefined ? null : { id, name };
  };
  return {
    data: {
      region_code: nik.kecamatan,
      provinsi: ref(active(now.provinsi)),
      kabupaten: ref(active(now.kabupaten)),
      kecamatan: ref(active(now.kecamatan)),
      birth_date: nik.birthDate,
      sex: nik.sex,
      recoded: true,
      as_issued: {
        edition: editions[ord]?.id ?? String(ord),
        provinsi: issued(nik.provinsi, chain.provinsi),
        kabupaten: issued(nik.kabupaten, chain.kabupaten),
        kecamatan: issued(nik.kecamatan, chain.kecamatan),
      },
    },
  };
}
