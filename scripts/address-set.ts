/**
 * Builds the address quality set (test/fixtures/address-set.json) from the seed, with a fixed random
 * seed: addresses are drawn from the data by the rules below, never picked by hand. It also checks
 * the hand-written list of real addresses (test/fixtures/address-real.json) against the same seed.
 *
 *   node scripts/boot.mjs node scripts/address-set.ts
 *   node scripts/boot.mjs node scripts/address-set.ts --seed 7 --out /tmp/held-out.json   (another draw)
 *
 * Every address is built around one active kelurahan/desa (the expected answer), drawn uniformly
 * from the villages whose name has no `,` `(` `)` `;` (those characters cut an address into parts).
 * Its kecamatan, kabupaten/kota and provinsi are the village's parents in the seed; its postal code
 * is the village's (seed/sources/wilayah-postal-codes.csv). Street names come from a fixed list of
 * common Indonesian street names (STREETS) and dusun names from a fixed list of common hamlet names
 * (HAMLETS): they are made-up parts of made-up addresses, not data. House numbers, RT and RW are
 * random. Each entry says:
 * - `kelurahan_id`, `kabupaten_id`: the expected answer;
 * - `determined`: whether the text determines one village: no other active village fits what the
 *   text names (complete addresses: the village's, kecamatan's and kabupaten's names, the kabupaten
 *   by its bare name, so `Madiun` fits Kota and Kabupaten Madiun; village + city: the village's name
 *   and the kabupaten, by id when written with `Kota`/`Kabupaten`/`Kab.`, else by bare name; postal
 *   code + village: the village's name and the postal code; names compared after search
 *   normalisation);
 * - `names_kabupaten`: whether the text names the kabupaten/kota (only `postal_village` does not);
 * - `warnings`: the warnings a resolver must give (`typo_corrected`, `former_name`,
 *   `postal_code_mismatch`, `kabupaten_inconsistent`);
 * - `note`: what was changed (the typo, the former name, the trap).
 *
 * Styles (STYLE_SIZE each):
 * - `ecommerce`: a marketplace form with commas, Google Maps' order: `Jl. X No. n, RT.a/RW.b,
 *   Village, Kec. Y, Kota Z, Province 12345`. RT/RW in half; `Kec.` or `Kecamatan`; the kabupaten
 *   as `Kabupaten Z`/`Kota Z` (its name), `Kab. Z`, or its name without the prefix; the province by
 *   name or short name (`DKI Jakarta`); the postal code in 80%.
 * - `ktp`: KTP style in capitals: one line without commas (`JL. X NO. n RT 003 RW 002 KEL. V KEC. Y
 *   KOTA Z JAWA BARAT`) or the card's labelled lines (`Alamat : ...`, `RT/RW : 003/002`,
 *   `Kel/Desa : V`, `Kecamatan : Y`, with `KABUPATEN Z` and `PROVINSI P` on top, as printed).
 * - `village_city`: the village and the kabupaten/kota only, in one of five forms (`V, Kota Z`,
 *   `Kel. V Kab. Z`, `v z` lowercase, `Desa V - Z`, `V, Z`).
 * - `postal_village`: the village and its postal code only (`V 12345`, `Kel. V, 12345`,
 *   `12345 V`, `Desa V Kode Pos 12345`); names no kabupaten.
 * - `lowercase_abbrev`: chat style, all lowercase, markers abbreviated (`jl`, `no`, `rt`, `rw`,
 *   `kel`/`ds`, `kec`, `kab`/`kota`), the kabupaten/kota by its short form from seed/aliases.csv
 *   when it has one (`jaksel`, `tangsel`), the province by its short form when it has one (`jabar`,
 *   `dki`, `diy`), with or without commas.
 * - `typo`: the ecommerce form with one typo (deletion, insertion, substitution or transposition
 *   of neighbours, a quarter each) in the longest word (5+ letters) of the village name (60%), the
 *   kecamatan (25%) or the kabupaten/kota (15%), when the edited word is no word of any indexed name
 *   (otherwise it is another name, not a typo).
 * - `street_trap`: a complete address whose street is named after a region: another kecamatan of
 *   the same kabupaten (40%), another village of the same kecamatan (20%), a random kabupaten/kota
 *   elsewhere (20%: `Jl. Bandung` in Malang), or a province (20%: `Jl. Sumatera`); with commas or as
 *   one line with markers.
 * - `rural`: `Dusun D RT 0a RW 0b Desa V Kecamatan Y Kabupaten Z`, desa (codes x.x.x.2xxx) of
 *   kabupaten (not kota) only, the dusun name from HAMLETS (many are village names elsewhere).
 * - `any_order`: the four levels in a random order (province first, village last, mixed), with
 *   their level words (70%) or without, the street first or last.
 * - `complex`: a housing complex named after a region (`Perum Griya Cibadak Blok C2 No. 5`: another
 *   kecamatan of the same kabupaten, or a kabupaten elsewhere) followed by the village, kecamatan and
 *   kabupaten/kota.
 * - `postal_mismatch`: the ecommerce form with the postal code of a village in another kecamatan of
 *   the same kabupaten (a code the village does not have): the names decide, with a warning.
 * - `kabupaten_twin`: the village and its kecamatan with the kabupaten written as its namesake of the
 *   other kind (`Kabupaten Bandung` for a village of Kota Bandung; only where both exist): the
 *   village and kecamatan decide, with a warning.
 * - `former_name`: the ecommerce form with the village's name in the previous edition
 *   (idn-area-data 3.1.2) where it differs from today's beyond case, spaces and punctuation and is no
 *   current village name in that kecamatan (147 villages qualify). It expects `former_name` where the
 *   seed holds the name as a former one; a name the seed reads as another spelling of today's
 *   (`Rakateda Satu` for Rakateda I: number words) expects no warning.
 * - `former_code`: a village's code of an earlier edition (2015 to 2023), as a database keyed on it
 *   holds it, dotted (60%) or as ten digits, in one of four forms (`V, code`, `code V` in capitals,
 *   a street and `Kode Wilayah code` with no name at all, `Desa V (code), Kec. Y, Kab. Z`): codes
 *   that are no code today and have exactly one successor in the seed's region history
 *   (scripts/seed/history.ts), the expected village. Expects `former_code`; the code determines
 *   the village, and the kabupaten counts as named only in the last form.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as previous from "idn-area-data-v3";
import { seeded } from "../src/lib/random.ts";
import { levelOf, parentAt } from "../src/wilayah/codes.ts";
import { addressKit, must, type SeedRow } from "./address-kit.ts";
import { checkRealAddressFile } from "./address-real.ts";
import { HAMLETS, STREETS } from "./address-words.ts";
import { isMain, LETTERS, root, SEED_DIR, TYPO_OPS, typoOf } from "./lib.ts";
import { buildSeed } from "./seed/build.ts";
import { buildHistory } from "./seed/history.ts";
import { readHistoryInputs } from "./seed/history-editions.ts";

export const STYLE_SIZE = 120;

export type AddressCase = {
  style: string;
  text: string;
  kelurahan_id: string;
  kabupaten_id: string;
  determined: boolean;
  names_kabupaten: boolean;
  warnings?: string[];
  note?: string;
};

type Seed = Awaited<ReturnType<typeof buildSeed>>;

/** The fixed random seed of the committed set; another one draws a held-out set (`--seed N --out FILE`). */
export const RANDOM_SEED = 24;

export async function buildAddressSet(seed = RANDOM_SEED, built?: Seed): Promise<AddressCase[]> {
  const { rows } = built ?? (await buildSeed(SEED_DIR));
  const {
    pick,
    chance,
    int,
    pad,
    byId,
    key,
    villages,
    childrenOf,
    fits,
    vocab,
    shortOf,
    provinces,
    kabupatens,
    parents,
    isDesa,
    villageWord,
    kabForm,
    provForm,
    street,
    houseNo,
    completeDetermined,
    random,
  } = addressKit(rows, seeded(seed));

  const out: AddressCase[] = [];
  const draw = (style: string, size: number | (() => Omit<AddressCase, "style"> | null), maker?: () => Omit<AddressCase, "style"> | null) => {
    const n = typeof size === "number" ? size : STYLE_SIZE;
    const make = typeof size === "number" ? must(maker, "maker") : size;
    const seen = new Set<string>();
    for (let tries = 0; seen.size < n && tries < n * 200; tries++) {
      const c = make();
      if (c && !seen.has(c.text)) {
        seen.add(c.text);
        out.push({ style, ...c });
      }
    }
    if (seen.size < n) throw new Error(`${style}: only ${seen.size} addresses could be drawn`);
  };
  const base = (v: SeedRow, text: string, extra: Partial<AddressCase> = {}): Omit<AddressCase, "style"> => ({
    text,
    kelurahan_id: v.id,
    kabupaten_id: parentAt(v.id, "kabupaten"),
    determined: completeDetermined(v),
    names_kabupaten: true,
    ...extra,
  });
  /** The ecommerce form, with the village, kecamatan and kabupaten names given (a typo or a former name goes in). */
  const ecommerce = (v: SeedRow, names: { village?: string; kec?: string; kab?: string } = {}) => {
    const { kec, kab, prov } = parents(v);
    const kabText = names.kab ?? kabForm(kab, pick(["name", "name", "abbrev", "bare"] as const));
    const parts = [`${street()} No. ${houseNo()}`];
    if (chance(0.5)) parts.push(`RT.${pad(int(1, 12), pick([1, 2, 3]))}/RW.${pad(int(1, 9), pick([1, 2, 3]))}`);
    parts.push(names.village ?? v.name, `${pick(["Kec.", "Kecamatan"])} ${names.kec ?? kec.name}`, kabText);
    let last = provForm(prov);
    if (chance(0.8)) last += ` ${v.postalCode}`;
    parts.push(last);
    return parts.join(", ");
  };

  draw("ecommerce", () => {
    const v = pick(villages);
    return base(v, ecommerce(v));
  });

  draw("ktp", () => {
    const v = pick(villages);
    const { kec, kab, prov } = parents(v);
    const up = (s: string) => s.toUpperCase();
    const rt = pad(int(1, 15), 3);
    const rw = pad(int(1, 9), 3);
    if (chance(0.6)) {
      const kabText = kab.type === "kota" ? `KOTA ${up(kab.altName)}` : `${pick(["KAB.", "KABUPATEN"])} ${up(kab.altName)}`;
      const text = `${up(street())} NO. ${houseNo()} RT ${rt} RW ${rw} ${isDesa(v) ? pick(["DESA", "DS."]) : "KEL."} ${up(v.name)} KEC. ${up(kec.name)} ${kabText}${chance(0.5) ? ` ${up(prov.altName)}` : ""}`;
      return base(v, text);
    }
    const header = `PROVINSI ${up(prov.name)}\n${up(kab.name)}`;
    const text = `${header}\nAlamat : ${up(street())} NO. ${houseNo()}\nRT/RW : ${rt}/${rw}\nKel/Desa : ${up(v.name)}\nKecamatan : ${up(kec.name)}`;
    return base(v, text);
  });

  draw("village_city", () => {
    const v = pick(villages);
    const { kab } = parents(v);
    const form = int(0, 4);
    const determined = form <= 1 ? fits(v.name, { kabId: kab.id }) === 1 : fits(v.name, { kabBare: kab.altName }) === 1;
    const text =
      form === 0
        ? `${v.name}, ${kab.name}`
        : form === 1
          ? `${villageWord(v)} ${v.name} ${kabForm(kab, "abbrev")}`
          : form === 2
            ? `${v.name} ${kab.altName}`.toLowerCase()
            : form === 3
              ? `Desa ${v.name} - ${kab.altName}`
              : `${v.name}, ${kab.altName}`;
    return base(v, text, { determined });
  });

  draw("postal_village", () => {
    const v = pick(villages);
    const form = int(0, 3);
    const text =
      form === 0
        ? `${v.name} ${v.postalCode}`
        : form === 1
          ? `${villageWord(v)} ${v.name}, ${v.postalCode}`
          : form === 2
            ? `${v.postalCode} ${v.name}`
            : `Desa ${v.name} Kode Pos ${v.postalCode}`;
    return base(v, text, { determined: fits(v.name, { postal: must(v.postalCode, "postal code") }) === 1, names_kabupaten: false });
  });

  draw("lowercase_abbrev", () => {
    const v = pick(villages);
    const { kec, kab, prov } = parents(v);
    const kabShort = shortOf(kab.id);
    const kabText = kabShort ?? `${kab.type === "kota" ? "kota" : "kab"} ${kab.altName}`;
    const provText = shortOf(prov.id) ?? prov.altName;
    const words = [
      `jl ${pick(STREETS)} no ${houseNo()}`,
      ...(chance(0.5) ? [`rt ${int(1, 12)} rw ${int(1, 9)}`] : []),
      `${isDesa(v) ? pick(["ds", "desa"]) : "kel"} ${v.name}`,
      `kec ${kec.name}`,
      kabText,
      ...(chance(0.7) ? [provText] : []),
    ];
    const text = words.join(chance(0.5) ? ", " : " ").toLowerCase();
    return base(v, text, kabShort ? { note: `kabupaten as ${kabShort}` } : {});
  });

  const typo = (name: string): { text: string; note: string } | null => {
    const words = name.split(" ");
    const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
    const lw = longest.toLowerCase();
    if (!/^[a-z]{5,}$/.test(lw)) return null;
    const op = pick(TYPO_OPS);
    const i = int(1, lw.length - 1); // the first letter kept: people rarely get it wrong, and it keeps the case
    const edited = typoOf(lw, op, i, LETTERS[int(0, 25)]);
    if (!edited || edited === lw || vocab.has(edited)) return null;
    const cased = longest[0] + edited.slice(1);
    return { text: words.map((w) => (w === longest ? cased : w)).join(" "), note: `${op} in ${longest}` };
  };
  draw("typo", () => {
    const v = pick(villages);
    const { kec, kab } = parents(v);
    const where = random();
    if (where < 0.6) {
      const t = typo(v.name);
      return t && base(v, ecommerce(v, { village: t.text }), { warnings: ["typo_corrected"], note: `village: ${t.note}` });
    }
    if (where < 0.85) {
      const t = typo(kec.name);
      return t && base(v, ecommerce(v, { kec: t.text }), { warnings: ["typo_corrected"], note: `kecamatan: ${t.note}` });
    }
    const t = typo(kab.altName);
    const prefix = kab.type === "kota" ? "Kota" : pick(["Kabupaten", "Kab."]);
    return t && base(v, ecommerce(v, { kab: `${prefix} ${t.text}` }), { warnings: ["typo_corrected"], note: `kabupaten: ${t.note}` });
  });

  /** A region name that is not the village's own chain: the trap. */
  const trapName = (v: SeedRow, weights: [number, number, number, number]): { name: string; note: string } | null => {
    const { kec, kab } = parents(v);
    const x = random();
    const [a, b, c] = [weights[0], weights[0] + weights[1], weights[0] + weights[1] + weights[2]];
    if (x < a) {
      const other = (childrenOf.get(kab.id) ?? []).filter((k) => k.id !== kec.id && key(k.name) !== key(v.name));
      return other.length ? { name: pick(other).name, note: "a kecamatan of the same kabupaten" } : null;
    }
    if (x < b) {
      const other = (childrenOf.get(kec.id) ?? []).filter((k) => k.id !== v.id && key(k.name) !== key(v.name) && !/[,();]/.test(k.name));
      return other.length ? { name: pick(other).name, note: "a village of the same kecamatan" } : null;
    }
    if (x < c) {
      const other = pick(kabupatens);
      return other.id === kab.id ? null : { name: other.altName, note: "a kabupaten/kota elsewhere" };
    }
    const p = pick(provinces);
    return p.id === parentAt(v.id, "provinsi") ? null : { name: p.name, note: "a province" };
  };

  draw("street_trap", () => {
    const v = pick(villages);
    const { kec, kab, prov } = parents(v);
    const trap = trapName(v, [0.4, 0.2, 0.2, 0.2]);
    if (!trap) return null;
    const st = `${pick(["Jl.", "Jalan", "Jln.", "Gg."])} ${trap.name}`;
    const text = chance(0.5)
      ? `${st} No. ${houseNo()}, ${v.name}, ${kec.name}, ${kabForm(kab, pick(["name", "abbrev"] as const))}, ${provForm(prov)}`
      : `${st} No. ${houseNo()} ${villageWord(v)} ${v.name} Kec. ${kec.name} ${kabForm(kab, "abbrev")}`;
    return base(v, text, { note: `street: ${trap.note}` });
  });

  draw("rural", () => {
    const v = pick(villages);
    const { kec, kab } = parents(v);
    if (!isDesa(v) || kab.type !== "kabupaten") return null;
    const text = `Dusun ${pick(HAMLETS)} RT 0${int(1, 9)} RW 0${int(1, 9)} Desa ${v.name} Kecamatan ${kec.name} Kabupaten ${kab.altName}`;
    return base(v, text);
  });

  draw("any_order", () => {
    const v = pick(villages);
    const { kec, kab, prov } = parents(v);
    const marked = chance(0.7);
    const levels = [
      marked ? `${villageWord(v)} ${v.name}` : v.name,
      marked ? `Kec. ${kec.name}` : kec.name,
      marked ? kabForm(kab, "abbrev") : kabForm(kab, pick(["name", "bare"] as const)),
      marked ? `Prov. ${prov.altName}` : prov.altName,
    ];
    for (let i = levels.length - 1; i > 0; i--) {
      const j = int(0, i);
      [levels[i], levels[j]] = [levels[j], levels[i]];
    }
    const st = `${street()} No. ${houseNo()}`;
    return base(v, (chance(0.5) ? [st, ...levels] : [...levels, st]).join(", "));
  });

  draw("complex", () => {
    const v = pick(villages);
    const { kec, kab, prov } = parents(v);
    const trap = trapName(v, [0.6, 0, 0.4, 0]);
    if (!trap) return null;
    const name = pick([`Griya ${trap.name}`, `${trap.name} Indah`, `Bumi ${trap.name}`, `${trap.name} Residence`]);
    const block = `${pick(["A", "B", "C", "D", "E", "F"])}${int(1, 12)}`;
    const text = `${pick(["Perum", "Perumahan", "Komplek", "Komp."])} ${name} Blok ${block} No. ${int(1, 40)}, ${villageWord(v)} ${v.name}, Kec. ${kec.name}, ${kabForm(kab, pick(["name", "abbrev"] as const))}, ${provForm(prov)}`;
    return base(v, text, { note: `complex: ${trap.note}` });
  });

  const before = await (previous as unknown as { getVillages(): Promise<{ code: string; name: string }[]> }).getVillages();
  const formerById = new Map(before.map((x) => [x.code, x.name]));
  const letterKey = (s: string) => key(s).replace(/[^a-z0-9]/g, "");
  const renamed = villages.filter((v) => {
    const former = formerById.get(v.id);
    if (!former || letterKey(former) === letterKey(v.name) || /[,();]/.test(former)) return false;
    return !(childrenOf.get(must(v.parentId, "parent")) ?? []).some((s) => key(s.name) === key(former));
  });
  const title = (s: string) =>
    s
      .toLowerCase()
      .replace(/(^|[\s\-.(/])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())
      .replace(/\b(i{1,3}|iv|vi{0,3}|ix|xi{0,3})\b/gi, (r) => r.toUpperCase()); // roman numerals

  let formerAt = 0;
  const formerOrder = [...renamed];
  for (let i = formerOrder.length - 1; i > 0; i--) {
    const j = int(0, i);
    [formerOrder[i], formerOrder[j]] = [formerOrder[j], formerOrder[i]];
  }
  draw("former_name", Math.min(STYLE_SIZE, formerOrder.length), () => {
    const v = formerOrder[formerAt++ % formerOrder.length];
    const former = title(must(formerById.get(v.id), "former name"));
    return base(v, ecommerce(v, { village: former }), {
      determined: fits(former, { kec: parents(v).kec.name }) === 0 && completeDetermined(v),
      // The seed's judgement: a former name (wilayah_former), or another spelling of today's name
      // (`Rakateda Satu` for Rakateda I: an alias, read as the current name, no warning).
      ...(v.former.some((f) => key(f) === key(former)) ? { warnings: ["former_name"] } : {}),
      note: `${former} is now ${v.name}`,
    });
  });

  // Warnings the resolver must give while still answering the village the names say.
  draw("postal_mismatch", () => {
    const v = pick(villages);
    const { kec, kab } = parents(v);
    const others = (childrenOf.get(kab.id) ?? []).filter((k) => k.id !== kec.id).flatMap((k) => childrenOf.get(k.id) ?? []);
    const wrong = others.filter((o) => o.postalCode !== v.postalCode);
    if (!wrong.length) return null;
    const code = must(pick(wrong).postalCode, "postal code");
    const text = `${ecommerce(v).replace(/ \d{5}$/, "")} ${code}`;
    return base(v, text, { warnings: ["postal_code_mismatch"], note: `postal code ${code} is another kecamatan's (the village's is ${v.postalCode})` });
  });

  const twins = new Map<string, SeedRow[]>();
  for (const k of kabupatens) twins.set(key(k.altName), [...(twins.get(key(k.altName)) ?? []), k]);
  const twinned = villages.filter((v) => (twins.get(key(parents(v).kab.altName))?.length ?? 0) > 1);
  draw("kabupaten_twin", () => {
    const v = pick(twinned);
    const { kec, kab, prov } = parents(v);
    const twin = must(
      must(twins.get(key(kab.altName)), "twins").find((k) => k.id !== kab.id),
      "twin",
    );
    const twinText = twin.type === "kota" ? `Kota ${twin.altName}` : pick([`Kabupaten ${twin.altName}`, `Kab. ${twin.altName}`]);
    const text = `${street()} No. ${houseNo()}, ${villageWord(v)} ${v.name}, Kec. ${kec.name}, ${twinText}, ${provForm(prov)}`;
    return base(v, text, { warnings: ["kabupaten_inconsistent"], note: `written ${twinText}: the village is in ${kab.name}` });
  });

  // Codes of earlier editions, as a database keyed on them holds them: the villages whose code of an
  // earlier edition is no code today and has exactly one successor in the seed's history.
  const history = buildHistory(readHistoryInputs(SEED_DIR));
  const formerCodes = [...history.successors]
    .filter(([old, next]) => levelOf(old) === "kelurahan" && !history.codes.get(old)?.current && !byId.get(old)?.isActive && next.length === 1)
    .map(([old, next]) => ({ old, v: byId.get(next[0].code) }))
    .filter((x): x is { old: string; v: SeedRow } => !!x.v && x.v.isActive === 1 && villages.includes(x.v));
  draw("former_code", () => {
    const { old, v } = pick(formerCodes);
    const { kec, kab } = parents(v);
    const written = chance(0.6) ? old : old.replaceAll(".", "");
    const form = int(0, 3);
    const text =
      form === 0
        ? `${v.name}, ${written}`
        : form === 1
          ? `${written} ${v.name.toUpperCase()}`
          : form === 2
            ? `${street()} No. ${houseNo()}, ${pick(["Kode Wilayah", "kode wilayah:", "Kode Kemendagri"])} ${written}`
            : `${villageWord(v)} ${v.name} (${written}), Kec. ${kec.name}, ${kabForm(kab, "abbrev")}`;
    return base(v, text, { determined: true, names_kabupaten: form === 3, warnings: ["former_code"], note: `${old} is now ${v.id}` });
  });
  return out;
}

async function main() {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const built = await buildSeed(SEED_DIR);
  const set = await buildAddressSet(Number(arg("--seed") ?? RANDOM_SEED), built);
  const file = arg("--out") ?? join(root, "test", "fixtures", "address-set.json");
  writeFileSync(file, `${JSON.stringify(set, null, 1)}\n`);
  const styles = new Map<string, { n: number; determined: number }>();
  for (const c of set) {
    const s = styles.get(c.style) ?? { n: 0, determined: 0 };
    s.n++;
    if (c.determined) s.determined++;
    styles.set(c.style, s);
  }
  console.log(`${file}: ${set.length} addresses`);
  for (const [style, s] of styles) console.log(`  ${style.padEnd(18)} ${s.n} (${s.determined} determine one village)`);
  console.log(await checkRealAddressFile(built));
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
