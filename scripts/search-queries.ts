/**
 * Builds the search quality set (test/fixtures/search-queries.json) from the seed, with a fixed
 * random seed: queries are drawn from the data by the rules below, never picked by hand.
 *
 *   npm run search:queries
 *
 * Groups (each query has the id it must find in the top 3; test/wilayah/search-quality.test.ts):
 * - exact: the official name of a random active region whose name no other active region uses.
 * - parent: a random kelurahan/kecamatan whose name is shared with other regions, with the name of
 *   its parent (kecamatan for a kelurahan, kabupaten/kota without its prefix for a kecamatan), in
 *   either order, with or without a comma, when name + parent identify one region.
 * - abbreviation: a random region of a unique name with the administrative word people type
 *   (`kab`, `kab.`, `kabupaten`, `kota`, `kec`, `kec.`, `kecamatan`, `kel`, `kel.`, `desa`, `ds`,
 *   `prov`, `provinsi`) before it.
 * - alias: every entry of seed/aliases.csv.
 * - typo: a random region of a unique name with one edit (deletion, insertion, substitution,
 *   transposition, a quarter each) in its longest word (5+ letters), when the edited word is no
 *   indexed word nor the start of one (otherwise it is another name, not a typo).
 * - code: a random active region's code, dotted or undotted.
 * - postal: a random postal code; it must find its villages (all of them counted, the top 3 among them).
 * - spacing, spelling, short-form, historic: names as people write them (issue 28), drawn by
 *   scripts/search-queries-names.ts with a random stream of their own, so the groups above stay as they were.
 * - variant, context-typo: issue 35's forms and misspellings, by the same file with a stream of
 *   their own. The committed set holds the other groups as drawn before issue 35 changed the
 *   seed's aliases and name table, with these two appended (docs/name-readings.md, "Quality groups"):
 *   a run of this script redraws every group from today's seed.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { seeded } from "../src/lib/random.ts";
import { undotted } from "../src/wilayah/codes.ts";
import { normalizeSearchText } from "../src/wilayah/normalize.ts";
import { nameWords } from "../src/wilayah/search/plan.ts";
import { LETTERS, SEED_DIR, TYPO_OPS, typoOf } from "./lib.ts";
import { buildNameGroups, type QualityQuery } from "./search-queries-names.ts";
import { buildSeed, type SeedResult } from "./seed/build.ts";
import { loadAliases, loadPostalCodes } from "./seed/search-index.ts";

/** The random seed of the committed set; `npm run search:quality -- --seeds ...` draws others (fresh draws). */
export const QUALITY_SEED = 15;

/**
 * `randomSeed`: the stream of the groups drawn here (the name groups keep their own streams, and
 * `nameGroups: false` leaves them out: a fresh draw of the others is the same without them).
 */
export async function buildQualitySet(randomSeed = QUALITY_SEED, built?: SeedResult, { nameGroups = true } = {}): Promise<QualityQuery[]> {
  const seed = built ?? (await buildSeed(SEED_DIR));
  const { rows } = seed;
  const random = seeded(randomSeed);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const active = rows.filter((r) => r.isActive === 1);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const termsOf = (r: (typeof rows)[number]) => [...new Set([r.name, r.altName, ...r.aliases].map(normalizeSearchText))];
  const termUse = new Map<string, number>();
  for (const r of active) for (const t of termsOf(r)) termUse.set(t, (termUse.get(t) ?? 0) + 1);
  const unique = active.filter((r) => termsOf(r).every((t) => termUse.get(t) === 1));
  const vocab = new Set(rows.flatMap((r) => termsOf(r).flatMap(nameWords)));
  const vocabList = [...vocab].sort();
  const startsAWord = (w: string) => {
    let lo = 0;
    let hi = vocabList.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (vocabList[mid] < w) lo = mid + 1;
      else hi = mid;
    }
    return lo < vocabList.length && vocabList[lo].startsWith(w);
  };
  const out: QualityQuery[] = [];
  const byLevel = (level: string, list = unique) => list.filter((r) => r.level === level);
  const draw = (group: string, n: number, make: () => QualityQuery | null) => {
    const seen = new Set<string>();
    for (let tries = 0; seen.size < n && tries < n * 200; tries++) {
      const q = make();
      if (q && !seen.has(q.q)) {
        seen.add(q.q);
        out.push({ ...q, group });
      }
    }
  };

  // exact: 10 kabupaten/kota, 15 kecamatan, 15 kelurahan
  for (const [level, n] of [
    ["kabupaten", 10],
    ["kecamatan", 15],
    ["kelurahan", 15],
  ] as const) {
    draw("exact", n, () => {
      const r = pick(byLevel(level));
      return { group: "exact", q: r.name, expected: r.id };
    });
  }

  // parent
  const shared = active.filter((r) => (r.level === "kelurahan" || r.level === "kecamatan") && (termUse.get(normalizeSearchText(r.name)) ?? 0) > 1);
  const parentName = (r: (typeof rows)[number]) => {
    const p = r.parentId ? byId.get(r.parentId) : undefined;
    if (!p) throw new Error(`${r.id} has no parent in the seed`);
    return p.level === "kabupaten" ? p.altName : p.name;
  };
  const pairUse = new Map<string, number>();
  for (const r of shared) {
    const k = `${normalizeSearchText(r.name)}|${normalizeSearchText(parentName(r))}`;
    pairUse.set(k, (pairUse.get(k) ?? 0) + 1);
  }
  draw("parent", 40, () => {
    const r = pick(shared);
    const parent = parentName(r);
    if (pairUse.get(`${normalizeSearchText(r.name)}|${normalizeSearchText(parent)}`) !== 1) return null;
    const form = Math.floor(random() * 3);
    const q = form === 0 ? `${r.name} ${parent}` : form === 1 ? `${r.name}, ${parent}` : `${parent} ${r.name}`;
    return { group: "parent", q, expected: r.id };
  });

  // abbreviation
  const ADMIN: Record<string, string[]> = {
    kabupaten: ["kab", "kab.", "kabupaten"],
    kota: ["kota"],
    kecamatan: ["kec", "kec.", "kecamatan"],
    kelurahan: ["kel", "kel.", "kelurahan"],
    desa: ["desa", "ds"],
    provinsi: ["prov", "provinsi"],
  };
  draw("abbreviation", 40, () => {
    const r = pick(unique);
    if (r.level === "provinsi") return { group: "abbreviation", q: `${pick(ADMIN.provinsi)} ${r.name}`, expected: r.id };
    if (r.level === "kabupaten") return { group: "abbreviation", q: `${r.type === "kota" ? "kota" : pick(ADMIN.kabupaten)} ${r.altName}`, expected: r.id };
    if (r.level === "kecamatan") return { group: "abbreviation", q: `${pick(ADMIN.kecamatan)} ${r.name}`, expected: r.id };
    const kind = r.id.split(".")[3].startsWith("1") ? "kelurahan" : "desa"; // 1xxx kelurahan, 2xxx desa
    return { group: "abbreviation", q: `${pick(ADMIN[kind])} ${r.name}`, expected: r.id };
  });

  // alias: all of them
  for (const a of loadAliases(SEED_DIR, new Set(byId.keys()))) out.push({ group: "alias", q: a.alias, expected: a.id });

  // typo
  for (const op of TYPO_OPS) {
    draw("typo", 12, () => {
      const r = pick(unique.filter((x) => x.level !== "provinsi"));
      const name = normalizeSearchText(r.level === "kabupaten" ? r.altName : r.name);
      const words = name.split(" ");
      const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
      if (!/^[a-z]{5,}$/.test(longest)) return null;
      const i = Math.floor(random() * longest.length);
      const w = typoOf(longest, op, i, LETTERS[Math.floor(random() * 26)]);
      if (!w || w === longest || vocab.has(w) || startsAWord(w)) return null;
      return { group: "typo", q: words.map((x) => (x === longest ? w : x)).join(" "), expected: r.id, note: `${op} in ${longest}` };
    });
  }

  // code
  draw("code", 20, () => {
    const r = pick(active);
    return { group: "code", q: random() < 0.5 ? r.id : undotted(r.id), expected: r.id };
  });

  // postal
  const postal = loadPostalCodes(SEED_DIR);
  const villages = new Map<string, string[]>();
  for (const [id, code] of postal) villages.set(code, [...(villages.get(code) ?? []), id]);
  const codes = [...villages.keys()].sort();
  draw("postal", 20, () => {
    const code = pick(codes);
    const all = (villages.get(code) ?? []).filter((id) => byId.get(id)?.isActive === 1);
    return { group: "postal", q: code, expected: all[0], all };
  });

  // spacing, spelling, short-form, historic
  if (nameGroups) out.push(...buildNameGroups(seed));
  return out;
}

async function main() {
  const set = await buildQualitySet();
  const file = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "search-queries.json");
  writeFileSync(file, `${JSON.stringify(set, null, 1)}\n`);
  const groups = new Map<string, number>();
  for (const q of set) groups.set(q.group, (groups.get(q.group) ?? 0) + 1);
  console.log(`test/fixtures/search-queries.json: ${set.length} queries`, Object.fromEntries(groups));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
