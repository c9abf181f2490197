/**
 * The region tables' lists and rows, for the seed build (scripts/seed/build.ts): the current list and
 * the earlier ones whose codes stay as retired (idn-area-data 4.0.1 and 3.1.2, then any edition
 * taken in with `npm run edition:add`), and each region's names: the alternative name, the aliases
 * people use, the names of older lists.
 */
import * as current from "idn-area-data";
import * as previous from "idn-area-data-v3";
import { LEVELS, type Level, levelOf } from "../../src/wilayah/codes.ts";
import { type HistoryInputs, levelNo, parentOf } from "./history-editions.ts";
import { nameKey } from "./history-names.ts";
import type { RegionStats } from "./region-sources.ts";
import type { Row } from "./region-sql.ts";

/** Names people also use for provinces: the short forms in everyday writing. */
const PROVINCE_ALT: Record<string, { alt?: string; aliases: string[] }> = {
  "11": { aliases: ["NAD", "Nanggroe Aceh Darussalam"] },
  "12": { aliases: ["Sumut"] },
  "13": { aliases: ["Sumbar"] },
  "16": { aliases: ["Sumsel"] },
  "19": { alt: "Bangka Belitung", aliases: ["Babel"] },
  "21": { aliases: ["Kepri"] },
  "31": { alt: "DKI Jakarta", aliases: ["Jakarta", "DKI"] },
  "32": { aliases: ["Jabar"] },
  "33": { aliases: ["Jateng"] },
  "34": { alt: "DI Yogyakarta", aliases: ["Yogyakarta", "Jogja", "Jogjakarta", "Yogya", "DIY"] },
  "35": { aliases: ["Jatim"] },
  "52": { aliases: ["NTB"] },
  "53": { aliases: ["NTT"] },
  "61": { aliases: ["Kalbar"] },
  "62": { aliases: ["Kalteng"] },
  "63": { aliases: ["Kalsel"] },
  "64": { aliases: ["Kaltim"] },
  "65": { aliases: ["Kaltara"] },
  "71": { aliases: ["Sulut"] },
  "72": { aliases: ["Sulteng"] },
  "73": { aliases: ["Sulsel"] },
  "74": { aliases: ["Sultra"] },
  "76": { aliases: ["Sulbar"] },
  "82": { aliases: ["Malut"] },
};

/** Everyday names of a few kabupaten/kota beyond the name without its prefix. */
const REGENCY_ALIASES: Record<string, string[]> = {
  "34.71": ["Jogja", "Jogjakarta", "Yogya"],
};

const KABUPATEN_PREFIX = /^(Kabupaten Administrasi|Kota Administrasi|Kabupaten|Kota) /;

/** A kabupaten/kota name as the older lists write it: `KAB. X`, `KOTA ADM. X`, `KABUPATEN X`. */
const OLD_KABUPATEN_PREFIX = /^(KABUPATEN ADMINISTRASI|KOTA ADMINISTRASI|KAB\.?\s*ADM\.?|KOTA\s*ADM\.?|KABUPATEN|KAB\.?|KOTA)\s+/i;

/** How a name of an older list is searched: a kabupaten/kota as `Kabupaten X` / `Kota X` and `X` (queries spell `kab.` out the same way). */
export function olderSpellings(level: Level, name: string): string[] {
  if (level !== "kabupaten") return [name];
  const m = OLD_KABUPATEN_PREFIX.exec(name);
  if (!m) return [name];
  const rest = name.slice(m[0].length);
  return [`${/^kota/i.test(m[1]) ? "Kota" : "Kabupaten"} ${rest}`, rest];
}

type Source = {
  getProvinces(): Promise<{ code: string; name: string }[]>;
  getRegencies(): Promise<{ code: string; province_code: string; name: string }[]>;
  getDistricts(): Promise<{ code: string; regency_code: string; name: string }[]>;
  getVillages(): Promise<{ code: string; district_code: string; name: string }[]>;
};

export type Lists = Record<Level, { id: string; name: string; parentId: string | null }[]>;

async function load(src: Source): Promise<Lists> {
  const [p, r, d, v] = await Promise.all([src.getProvinces(), src.getRegencies(), src.getDistricts(), src.getVillages()]);
  return {
    provinsi: p.map((x) => ({ id: x.code, name: x.name, parentId: null })),
    kabupaten: r.map((x) => ({ id: x.code, name: x.name, parentId: x.province_code })),
    kecamatan: d.map((x) => ({ id: x.code, name: x.name, parentId: x.regency_code })),
    kelurahan: v.map((x) => ({ id: x.code, name: x.name, parentId: x.district_code })),
  };
}

/** An edition's list (code -> name, dotted codes) as region lists: each code's parent is its prefix. */
function fromEdition(list: Map<string, string>): Lists {
  const out: Lists = { provinsi: [], kabupaten: [], kecamatan: [], kelurahan: [] };
  for (const [id, name] of [...list].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[levelOf(id)].push({ id, name, parentId: parentOf(id) });
  return out;
}

/**
 * The region tables' lists: the current one, and the earlier ones whose codes the tables keep as
 * retired (is_active 0), oldest first. Edition 2025 current: idn-area-data 4.0.1, and 3.1.2 before
 * it. A later edition current: its own list, and both releases before it.
 */
export async function regionLists({ editions: known, lists: editions }: HistoryInputs): Promise<{ now: Lists; earlier: Lists[]; sourceCodes: Set<string> }> {
  const [pkgNow, pkgBefore] = [await load(current as Source), await load(previous as Source)];
  const CURRENT = known.length - 1;
  const base = known.findLastIndex((e) => e.regions);
  // the codes seed/sources/ describes: edition 2025's (idn-area-data 4.0.1 has exactly its codes)
  const sourceCodes = new Set(LEVELS.flatMap((l) => pkgNow[l].map((x) => x.id)));
  if (base === CURRENT) return { now: pkgNow, earlier: [pkgBefore], sourceCodes };
  // A name a later decree did not change keeps the spelling the API served (idn-area-data writes 10
  // names of edition 2025 differently: a customer sees no change the changes feed does not list).
  let served = new Map(LEVELS.flatMap((l) => pkgNow[l].map((x) => [x.id, x.name] as const)));
  const lists: Lists[] = [];
  for (let i = base + 1; i <= CURRENT; i++) {
    const before = editions.get(known[i - 1].id) ?? new Map<string, string>();
    const list = editions.get(known[i].id) ?? new Map<string, string>();
    served = new Map([...list].map(([code, name]) => [code, before.get(code) === name ? (served.get(code) ?? name) : name]));
    lists.push(fromEdition(served));
  }
  return { now: lists[lists.length - 1], earlier: [pkgBefore, pkgNow, ...lists.slice(0, -1)], sourceCodes };
}

/**
 * The region tables' rows: each current region of `now`, and each code of the earlier lists not
 * current (is_active 0, as the latest list holding it had it), with its alternative name, its
 * aliases and former names (a rename since the list before), and the facts of the sources
 * (coordinates, postal code, population and area). Sorted by id; `renamed` counts the renames.
 */
export function regionRows(
  now: Lists,
  earlier: Lists[],
  facts: { coords: Map<string, { lat: number; lng: number }>; postal: Map<string, string>; stats: Map<string, RegionStats> },
): { rows: Row[]; renamed: number } {
  const { coords, postal, stats } = facts;
  const rows: Row[] = [];
  let renamed = 0;
  for (const level of LEVELS) {
    const currentIds = new Set(now[level].map((x) => x.id));
    const formerById = new Map(earlier[earlier.length - 1][level].map((x) => [x.id, x.name]));
    // retired: every earlier list's codes not current, as the latest list holding them had them
    const retiredById = new Map<string, Lists[Level][number]>();
    for (const list of earlier) for (const x of list[level]) if (!currentIds.has(x.id)) retiredById.set(x.id, x);
    const retired = [...retiredById.values()];
    for (const [entries, isActive] of [
      [now[level], 1],
      [retired, 0],
    ] as const) {
      for (const x of entries) {
        const former = formerById.get(x.id);
        const aliases: string[] = [];
        const formerOnes: string[] = [];
        if (isActive && former && former.toLowerCase() !== x.name.toLowerCase()) {
          // another spelling of the same name (Tanjung Balai, Tanjungbalai) is the current name; another name is a former one
          (nameKey(levelNo(level), former) === nameKey(levelNo(level), x.name) ? aliases : formerOnes).push(former);
          renamed++;
        }
        let altName = x.name;
        let type: Row["type"];
        if (level === "provinsi") {
          const extra = PROVINCE_ALT[x.id];
          if (extra?.alt) altName = extra.alt;
          aliases.push(...(extra?.aliases ?? []));
        } else if (level === "kabupaten") {
          type = x.name.startsWith("Kota ") ? "kota" : "kabupaten";
          altName = x.name.replace(KABUPATEN_PREFIX, "");
          aliases.push(...(REGENCY_ALIASES[x.id] ?? []));
          if (former) {
            const stripped = former.replace(/^(KABUPATEN ADMINISTRASI|KOTA ADMINISTRASI|KABUPATEN|KOTA) /i, "");
            (formerOnes.includes(former) ? formerOnes : aliases).push(stripped);
          }
        }
        const c = coords?.get(x.id);
        const postalCode = level === "kelurahan" && isActive ? (postal.get(x.id) ?? null) : null;
        rows.push({
          id: x.id,
          level,
          name: x.name,
          altName,
          parentId: x.parentId,
          type,
          isActive,
          aliases,
          former: formerOnes,
          lat: c?.lat ?? null,
          lng: c?.lng ?? null,
          postalCode,
          stats: level === "provinsi" || level === "kabupaten" ? (stats.get(x.id) ?? { male: null, female: null, total: null, areaKm2: null }) : undefined,
        });
      }
    }
  }
  rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { rows, renamed };
}

/** The alternative names and aliases written here by hand, for the provenance notes (scripts/seed/sources.ts). */
export function codedNames(): { id: string; kind: "alt_name" | "alias"; value: string }[] {
  return [
    ...Object.entries(PROVINCE_ALT).flatMap(([id, p]) => [
      ...(p.alt ? [{ id, kind: "alt_name" as const, value: p.alt }] : []),
      ...p.aliases.map((value) => ({ id, kind: "alias" as const, value })),
    ]),
    ...Object.entries(REGENCY_ALIASES).flatMap(([id, list]) => list.map((value) => ({ id, kind: "alias" as const, value }))),
  ];
}
