/**
 * A synthetic next edition, built from today's list, for the edition tests and the runbook's dry
 * run: written the way a decree's annex is (capitals, `KAB.`/`KOTA` prefixes, codes without dots),
 * in Windows-1252, with five kinds of change (and the curated links its law would give, as
 * seed/history-curated.csv has them for Papua in 2022):
 *  - a province split off (as Papua in 2022): two kabupaten of 94 go to a new province 97 and
 *    are recoded there (97.01, 97.02) with all their kecamatan and villages;
 *  - a kabupaten renamed (11.01);
 *  - a kecamatan split: half the villages of one kecamatan go to a new kecamatan beside it;
 *  - two villages recoded (new numbers in the same kecamatan);
 *  - two villages merged into a new one named after both.
 *
 *   node scripts/edition/synthetic.ts OUT.csv CURATED.csv [EXPECTED.json] [--seed DIR]
 */
import { writeFileSync } from "node:fs";
import { levelOf } from "../../src/wilayah/codes.ts";
import { isMain, seedDirArg } from "../lib.ts";
import { readEditions } from "../seed/history-editions.ts";

export const SYNTHETIC = {
  id: "2026",
  decree: "Kepmendagri 100.1.1-0001/2026 (synthetic test edition)",
  date: "2026-03-01",
  newProvince: { code: "97", name: "PAPUA CENDERAWASIH" },
  movedKabupaten: ["94.01", "94.02"],
  renamed: { code: "11.01", name: "KAB. ACEH SELATAN RAYA" },
};

/** The links the law forming the new province states (seed/history-curated.csv format). */
export const syntheticCurated = () =>
  `edition,old_code,new_code,relation,source\n${SYNTHETIC.movedKabupaten
    .map((k, i) => `${SYNTHETIC.id},${k},${SYNTHETIC.newProvince.code}.0${i + 1},successor,synthetic test law`)
    .join("\n")}\n${SYNTHETIC.id},94,${SYNTHETIC.newProvince.code},part,synthetic test law\n`;

/** The changes /wilayah/changes lists from 2025 to the synthetic edition, as [code_before, code_after] per kind (the history rules' kinds: a kecamatan split off one that stays is `created` from it). */
export type Expected = {
  created: [string | null, string][];
  renamed: [string, string][];
  recoded: [string, string][];
  merged: [string, string][];
  /** The merged village's code and name. */
  mergedInto: { code: string; name: string };
};

const annex = (code: string, name: string) => {
  const upper = name.toUpperCase();
  if (levelOf(code) === "kabupaten")
    return upper
      .replace(/^KABUPATEN ADMINISTRASI /, "KAB. ADM. ")
      .replace(/^KOTA ADMINISTRASI /, "KOTA ADM. ")
      .replace(/^KABUPATEN /, "KAB. ");
  return upper;
};

/** The next edition after the current one of the seed in `seedDir`. */
export function syntheticEdition(seedDir: string): { csv: Buffer; expected: Expected; list: Map<string, string> } {
  // The official spelling of today's list: the current edition as the editions file has it.
  const lists = readEditions(seedDir);
  const today = [...lists.values()].at(-1) as Map<string, string>;
  const next = new Map(today);
  const expected: Expected = { created: [], renamed: [], recoded: [], merged: [], mergedInto: { code: "", name: "" } };
  const childrenOf = (code: string) => [...next.keys()].filter((c) => c.startsWith(`${code}.`)).sort();
  const free = (parent: string, width: number, from: number) => {
    for (let n = from; ; n++) {
      const c = `${parent}.${String(n).padStart(width, "0")}`;
      if (!next.has(c) && !today.has(c)) return c;
    }
  };

  // A province split off: 94.01 -> 97.01, 94.02 -> 97.02, every code below them recoded.
  const p = SYNTHETIC.newProvince;
  next.set(p.code, p.name);
  expected.created.push(["94", p.code]);
  SYNTHETIC.movedKabupaten.forEach((kab, i) => {
    const to = `${p.code}.${String(i + 1).padStart(2, "0")}`;
    for (const code of [kab, ...childrenOf(kab)]) {
      const moved = to + code.slice(kab.length);
      next.set(moved, next.get(code) as string);
      next.delete(code);
      expected.recoded.push([code, moved]);
    }
  });

  // A kabupaten renamed.
  next.set(SYNTHETIC.renamed.code, SYNTHETIC.renamed.name);
  expected.renamed.push([SYNTHETIC.renamed.code, SYNTHETIC.renamed.code]);

  // A kecamatan split: the second half of 32.04.05's villages go to a new kecamatan beside it.
  const kec = "32.04.05";
  const villages = childrenOf(kec);
  const newKec = free("32.04", 2, 50);
  next.set(newKec, `${(next.get(kec) as string).toUpperCase()} UTARA`);
  expected.created.push([kec, newKec]);
  villages.slice(Math.ceil(villages.length / 2)).forEach((v, i) => {
    const moved = `${newKec}.${v.slice(-4, -3)}${String(i + 1).padStart(3, "0")}`;
    next.set(moved, next.get(v) as string);
    next.delete(v);
    expected.recoded.push([v, moved]);
  });

  // Two villages recoded within their kecamatan (same name, new number).
  for (const v of childrenOf("33.74.01").slice(0, 2)) {
    const moved = free("33.74.01", 4, Number(v.slice(-4)) + 90);
    next.set(moved, next.get(v) as string);
    next.delete(v);
    expected.recoded.push([v, moved]);
  }

  // Two villages merged into a new one named after both.
  const [a, b] = childrenOf("35.15.01").slice(0, 2);
  const merged = free("35.15.01", 4, Number(a.slice(-4)) + 80);
  const name = `${next.get(a)} ${next.get(b)}`;
  next.set(merged, name.toUpperCase());
  next.delete(a);
  next.delete(b);
  expected.merged.push([a, merged], [b, merged]);
  expected.mergedInto = { code: merged, name };

  const lines = ["code,name"];
  for (const [code, nm] of [...next].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const field = annex(code, nm);
    lines.push(`${code.replace(/\./g, "")},${/[",]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field}`);
  }
  // Windows-1252, as spreadsheet exports of annexes often are (every character of the list fits).
  const text = `${lines.join("\r\n")}\r\n`;
  const bytes = Buffer.from([...text].map((ch) => WINDOWS_1252.get(ch) ?? ch.charCodeAt(0)));
  return { csv: bytes, expected, list: next };
}

/** The characters of Windows-1252 outside Latin-1 that names use (the rest map to their code). */
const WINDOWS_1252 = new Map([
  ["\u2019", 0x92],
  ["\u2018", 0x91],
  ["\u201c", 0x93],
  ["\u201d", 0x94],
  ["\u2013", 0x96],
]);

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2);
  const seed = args.indexOf("--seed");
  const [out, curatedOut, expectedOut] = seed < 0 ? args : [...args.slice(0, seed), ...args.slice(seed + 2)];
  if (!out || !curatedOut) {
    console.error("usage: node scripts/edition/synthetic.ts OUT.csv CURATED.csv [EXPECTED.json] [--seed DIR]");
    process.exit(1);
  }
  const { csv, expected } = syntheticEdition(seedDirArg(args));
  writeFileSync(out, csv);
  writeFileSync(curatedOut, syntheticCurated());
  if (expectedOut) writeFileSync(expectedOut, `${JSON.stringify(expected, null, 2)}\n`);
  console.log(`${out}: ${csv.length} bytes`);
}
