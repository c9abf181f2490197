import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { beforeAll, describe, expect, it } from "vitest";
import { levelOf } from "../../src/wilayah/codes.ts";
import { SEED_DIR } from "../lib.ts";
import { buildHistory, readCurrentNames } from "./history.ts";
import { allEditionsMask, csvFields, type EditionId, type HistoryInputs, parseCurated, readHistoryInputs } from "./history-editions.ts";
import { nameKey, partDistance, similarity } from "./history-names.ts";
import { editionsFromRows, formerNames, type HistoryRows, historyRows, historySql } from "./history-storage.ts";
import { type History, resolveTransition } from "./history-transition.ts";

/** seed/sources/README.md (from ../shared/data/README.md): codes per level in each edition. */
const README_COUNTS: Record<EditionId, [number, number, number, number]> = {
  "2015": [34, 514, 7160, 83184],
  "2017": [34, 514, 7201, 83436],
  "2020": [34, 514, 7230, 83449],
  "2022": [34, 514, 7266, 83467],
  "2022b": [37, 514, 7277, 83763],
  "2025": [38, 514, 7285, 83762],
};

let inputs: HistoryInputs;
let editions: Map<EditionId, Map<string, string>>;
let h: History;
let currentNames: Map<string, string>;
let rows: HistoryRows;
let sql: string;

beforeAll(() => {
  inputs = readHistoryInputs(SEED_DIR);
  editions = inputs.lists;
  h = buildHistory(inputs);
  currentNames = readCurrentNames();
  rows = historyRows(h, currentNames);
  sql = historySql(rows);
}, 120_000); // a few seconds alone; the machine is shared

const successorCodes = (code: string) => h.successors.get(code)!.map((s) => s.code);

describe("editions", () => {
  it("has the README's counts per level in each edition (547,775 rows)", () => {
    for (const e of h.report.editions) expect(e.counts, e.id).toEqual(README_COUNTS[e.id]);
    expect(h.report.editions.reduce((n, e) => n + e.total, 0)).toBe(547_775);
  });

  it("knows 99,133 codes, 7,534 of them not current, and what left and appeared between editions", () => {
    expect(h.report.totalCodes).toBe(99_133);
    expect(h.report.notCurrent).toBe(7_534);
    expect(h.report.transitions.map((t) => [t.from, t.to, t.retired, t.appeared])).toEqual([
      ["2015", "2017", 527, 820],
      ["2017", "2020", 284, 326],
      ["2020", "2022", 332, 386],
      ["2022", "2022b", 5143, 5453],
      ["2022b", "2025", 1250, 1258],
    ]);
  });

  it("has edition 2025's codes equal to idn-area-data 4.0.1's; 57 names written differently, 10 beyond punctuation", () => {
    const e2025 = editions.get("2025")!;
    expect([...currentNames.keys()].sort()).toEqual([...e2025.keys()].sort());
    const differ = [...e2025].filter(([code, name]) => currentNames.get(code) !== name);
    expect(differ).toHaveLength(57); // mostly ' vs ", spaces around - and /, trailing dots
    const keyDiffer = differ.filter(
      ([code, name]) => nameKey(code.split(".").length as 1 | 2 | 3 | 4, name) !== nameKey(code.split(".").length as 1 | 2 | 3 | 4, currentNames.get(code)!),
    );
    expect(keyDiffer.map(([code]) => code)).toContain("32.05.38"); // Limbangan vs Bl. Limbangan
    expect(keyDiffer).toHaveLength(10);
    expect(keyDiffer.map(([code]) => code)).not.toContain("53.03.11.2005"); // N i a n
  });
});

describe("successors", () => {
  it("Merauke 91.01 -> 93.01 (curated, UU 14/2022), and 93.01's predecessor is 91.01", () => {
    expect(h.successors.get("91.01")).toEqual([{ code: "93.01", basis: "curated", confidence: 1, via: [] }]);
    expect(h.predecessors.get("93.01")).toEqual([{ code: "91.01", basis: "curated", confidence: 1, lastEdition: "2022" }]);
  });

  it("Kota Sorong 92.71 -> 96.71 (curated, UU 29/2022), not Kabupaten Sorong", () => {
    expect(h.successors.get("92.71")).toEqual([{ code: "96.71", basis: "curated", confidence: 1, via: [] }]);
    expect(successorCodes("92.01")).toEqual(["96.01"]);
    // every village of Kota Sorong in edition 2022b lands in 96.71
    const villages = [...editions.get("2022b")!.keys()].filter((c) => c.startsWith("92.71.") && levelOf(c) === "kelurahan");
    expect(villages).toHaveLength(41);
    for (const v of villages) expect(successorCodes(v).every((c) => c.startsWith("96.71."))).toBe(true);
  });

  it("every village of 91.01 in edition 2022 resolves to one village under 93.01: its namesake where there is one", () => {
    const e2022 = editions.get("2022")!;
    const e2022b = editions.get("2022b")!;
    const villages = [...e2022.keys()].filter((c) => c.startsWith("91.01.") && levelOf(c) === "kelurahan");
    expect(villages).toHaveLength(190);
    const merauke2022b = new Map<string, string[]>(); // name -> villages of 93.01 in edition 2022b
    for (const [c, n] of e2022b)
      if (c.startsWith("93.01.") && levelOf(c) === "kelurahan") merauke2022b.set(nameKey(4, n), [...(merauke2022b.get(nameKey(4, n)) ?? []), c]);
    let byName = 0;
    for (const v of villages) {
      const s = h.successors.get(v)!;
      expect(s, v).toHaveLength(1);
      expect(s[0].code.startsWith("93.01.")).toBe(true);
      const namesakes = merauke2022b.get(nameKey(4, e2022.get(v)!)) ?? [];
      if (namesakes.length) {
        expect(namesakes, v).toContain(s[0].code);
        byName++;
      } else expect(s[0].basis, v).toBe("similar_name");
    }
    expect(byName).toBe(182);
    // one of them by name: Nasem, 91.01.01.2001 -> 93.01.01.2001
    expect(h.successors.get("91.01.01.2001")).toEqual([{ code: "93.01.01.2001", basis: "same_name", confidence: 0.95, via: [] }]);
  });

  it("chains through several editions", () => {
    // Malamso: moved within Kota Sorong in 2017, then with Kota Sorong to Papua Barat Daya in 2025
    expect(h.successors.get("92.71.05.1008")).toEqual([{ code: "96.71.09.1003", basis: "same_name_elsewhere", confidence: 0.81, via: ["92.71.09.1005"] }]);
    // Sipenap: moved in 2022, to Papua Selatan in 2022b, again within Asmat in 2025 (spelt Sipanap)
    expect(h.successors.get("91.18.09.2008")).toEqual([
      { code: "93.04.09.2014", basis: "similar_name", confidence: 0.65, via: ["91.18.23.2008", "93.04.23.2008"] },
    ]);
    for (const [code, list] of h.successors) for (const s of list) expect(h.codes.get(s.code)?.current, `${code} -> ${s.code}`).toBe(true);
  });

  it("successors and predecessors mirror each other", () => {
    let links = 0;
    for (const [old, list] of h.successors) {
      for (const s of list) {
        links++;
        const p = h.predecessors.get(s.code)?.find((x) => x.code === old);
        expect(p, `${old} -> ${s.code}`).toMatchObject({ basis: s.basis, confidence: s.confidence });
      }
    }
    let back = 0;
    for (const [code, list] of h.predecessors) {
      expect(h.codes.get(code)!.current).toBe(true);
      for (const p of list) {
        back++;
        expect(h.codes.get(p.code)!.current).toBe(false);
        expect(successorCodes(p.code)).toContain(code);
      }
    }
    expect(back).toBe(links);
    expect(links).toBe(rows.successors.length);
  });

  it("states basis and confidence on every successor; a code's confidences never add up to more than 1", () => {
    for (const [code, list] of h.successors) {
      for (const s of list) expect(s.confidence > 0 && s.confidence <= 1 && s.basis.length > 0, code).toBe(true);
      expect(
        list.reduce((n, s) => n + s.confidence, 0),
        code,
      ).toBeLessThanOrEqual(1.0001);
    }
  });

  it("uses every curated row, each with its source", () => {
    const curated = inputs.curated;
    expect(curated.length).toBe(30);
    for (const c of curated) {
      expect(c.source).toMatch(/^UU (14|15|16|29)\/2022 /);
      if (c.relation === "successor") expect(h.successors.get(c.oldCode), c.oldCode).toEqual([{ code: c.newCode, basis: "curated", confidence: 1, via: [] }]);
      else expect(h.events).toContainEqual(expect.objectContaining({ change: "created", codeBefore: c.oldCode, codeAfter: c.newCode, basis: "curated" }));
    }
    expect(() => parseCurated("edition,old_code,new_code,relation,source\n2025,92.71,96.71,successor,\n", inputs.editions)).toThrow(/source/);
  });
});

describe("resolution report", () => {
  it("has these figures (a change in the method shows here)", () => {
    expect(h.report.rows.map((r) => [r.level, r.edition, r.one, r.several, r.none])).toEqual([
      [2, "2022", 20, 0, 0],
      [2, "2022b", 6, 0, 0],
      [3, "2022", 462, 0, 0],
      [3, "2022b", 132, 0, 0],
      [4, "2015", 470, 0, 55],
      [4, "2017", 276, 0, 8],
      [4, "2020", 328, 0, 4],
      [4, "2022", 4625, 1, 35],
      [4, "2022b", 1102, 0, 10],
    ]);
    expect(h.report.byBasis).toEqual({
      children: 3,
      curated: 26,
      name_part: 9,
      none: 112,
      same_name: 7110,
      same_name_elsewhere: 116,
      several: 1,
      similar_name: 157,
    });
    expect(h.report.events).toEqual({ created: 845, retired: 112, renamed: 4228, recoded: 7413, split: 0, merged: 12 });
  });

  it("drops nothing: every non-current code is counted once as one, several or none", () => {
    const notCurrent = [...h.codes.values()].filter((r) => !r.current).map((r) => r.code);
    expect(new Set(h.successors.keys())).toEqual(new Set(notCurrent));
    expect(h.report.rows.reduce((n, r) => n + r.one + r.several + r.none, 0)).toBe(notCurrent.length);
    for (const r of h.report.rows) expect(r.one + r.several + r.none).toBe(r.total);
    // a code without successor is told as retired (itself, or the code its chain reached), with the
    // current region that held it where known
    const none = notCurrent.filter((c) => h.successors.get(c)!.length === 0);
    const retiredAlongChain = (code: string): boolean =>
      h.events.some(
        (e) => e.codeBefore === code && (e.change === "retired" || (e.codeAfter !== null && e.codeAfter !== code && retiredAlongChain(e.codeAfter))),
      );
    for (const c of none) expect(retiredAlongChain(c), c).toBe(true);
    expect(none.filter((c) => !h.events.some((e) => e.change === "retired" && e.codeBefore === c))).toEqual(h.report.chainEnded.all);
    expect(h.report.chainEnded).toEqual({ all: ["91.16.03.2004", "91.18.08.2007"], some: [] });
    expect(none.filter((c) => h.within.get(c) === null)).toEqual([]);
  });
});

describe("stored rows", () => {
  it("answer /history for every code of every edition: editions and names read back exactly", () => {
    const byId = new Map(rows.history.map((r) => [r.id, r]));
    const wrong: string[] = [];
    let checked = 0;
    for (const [code, r] of h.codes) {
      const got = editionsFromRows(inputs.editions, byId.get(code), currentNames.get(code));
      const want = inputs.editions.flatMap((e) => (editions.get(e.id)!.has(code) ? [{ edition: e.id, name: editions.get(e.id)!.get(code)! }] : []));
      if (JSON.stringify(got) !== JSON.stringify(want) || (!r.current && byId.get(code)?.within !== h.within.get(code))) wrong.push(code);
      checked++;
    }
    expect(wrong).toEqual([]);
    expect(checked).toBe(99_133);
    expect(editionsFromRows(inputs.editions, undefined, undefined)).toBeNull();
    // rows only where the region row cannot answer
    expect(rows.history.length).toBe(21_721);
    expect(
      rows.history.filter(
        (r) => r.editions === allEditionsMask(inputs.editions) && JSON.parse(r.names).length === 1 && currentNames.get(r.id) === JSON.parse(r.names)[0][1],
      ),
    ).toEqual([]);
  });

  it("renders INSERTs below 60 KB each, the same bytes on every build", () => {
    for (const line of sql.split("\n")) expect(Buffer.byteLength(line)).toBeLessThan(61_000);
    expect(historySql(historyRows(buildHistory(readHistoryInputs(SEED_DIR)), currentNames))).toBe(sql);
  }, 120_000);

  it("loads into SQLite with the migration; /convert of 1,000 codes is one statement, a page of /changes rows by seq", () => {
    const db = new DatabaseSync(":memory:");
    db.exec(regionHistoryMigration().replaceAll("--> statement-breakpoint", ""));
    db.exec(sql);
    const codes = [...h.successors.keys()].filter((_, i) => i % 7 === 0).slice(0, 1000);
    expect(codes).toHaveLength(1000);
    const found = db
      .prepare(
        "SELECT j.value AS code, h.names, h.within, s.new_id, s.basis, s.confidence FROM json_each(?) j LEFT JOIN wilayah_history h ON h.id = j.value LEFT JOIN wilayah_successor s ON s.old_id = j.value",
      )
      .all(JSON.stringify(codes)) as { code: string; names: string | null; new_id: string | null }[];
    expect(new Set(found.map((r) => r.code)).size).toBe(1000);
    expect(found.every((r) => r.names !== null)).toBe(true);
    expect(found.filter((r) => r.new_id !== null)).toHaveLength(codes.reduce((n, c) => n + h.successors.get(c)!.length, 0));

    // a (edition, level, change) is one run of seq: a page of /changes is the seq values it covers, read by rowid
    const runs = db.prepare("SELECT edition, level, change, first, n FROM wilayah_change_run ORDER BY first").all() as {
      edition: number;
      level: number;
      change: string;
      first: number;
      n: number;
    }[];
    expect(runs.reduce((n, r) => n + r.n, 0)).toBe(h.events.length);
    for (const [i, r] of runs.entries()) expect(r.first).toBe(i === 0 ? 1 : runs[i - 1].first + runs[i - 1].n);
    const recoded = runs.filter((r) => r.level === 4 && r.change === "recoded");
    expect(recoded.reduce((n, r) => n + r.n, 0)).toBe(h.events.filter((e) => e.level === 4 && e.change === "recoded").length);
    const inRun = db
      .prepare("SELECT DISTINCT edition, level, change FROM wilayah_change WHERE seq BETWEEN ? AND ?")
      .all(recoded[0].first, recoded[0].first + recoded[0].n - 1);
    expect(inRun).toEqual([{ edition: recoded[0].edition, level: 4, change: "recoded" }]);
    const plan = (db.prepare("EXPLAIN QUERY PLAN SELECT * FROM wilayah_change WHERE seq IN (1, 2, 3, 100, 101) ORDER BY seq").all() as { detail: string }[])
      .map((r) => r.detail)
      .join("; ");
    expect(plan).toMatch(/INTEGER PRIMARY KEY/);
    const merauke = db.prepare("SELECT change, code_after FROM wilayah_change WHERE code_before = ? OR code_after = ? ORDER BY seq").all("91.01", "91.01");
    expect(merauke).toEqual([{ change: "recoded", code_after: "93.01" }]);
    db.close();
  });

  it("lists former names for search (earlier names and predecessors' names that differ)", () => {
    const former = formerNames(h, currentNames);
    expect(former.get("76.01")).toEqual(["KAB. MAMUJU UTARA"]);
    expect(former.get("81.03")).toEqual(["KAB MALUKU TENGGARA BARAT"]);
  });
});

describe("name matching", () => {
  it("compares names beyond case, spacing, abbreviations and number spelling, keeping kabupaten apart from kota", () => {
    expect(nameKey(2, "KAB. MERAUKE")).toBe(nameKey(2, "Kabupaten Merauke"));
    expect(nameKey(2, "KOTA ADM. JAKARTA PUSAT")).toBe(nameKey(2, "Kota Administrasi Jakarta Pusat"));
    expect(nameKey(2, "KAB. ADM. KEP. SERIBU")).toBe(nameKey(2, "Kabupaten Administrasi Kepulauan Seribu"));
    expect(nameKey(2, "KOTA SORONG")).not.toBe(nameKey(2, "KAB. SORONG"));
    expect(nameKey(1, "DKI JAKARTA")).toBe(nameKey(1, "Daerah Khusus Ibukota Jakarta"));
    expect(nameKey(4, "Desa Adat Waibron Bano")).toBe(nameKey(4, "Waibron Bano"));
    expect(nameKey(4, "Dagai Dua")).toBe(nameKey(4, "Dagai 2"));
    expect(nameKey(4, "Debasiga II")).toBe(nameKey(4, "Debasiga Dua"));
    expect(nameKey(4, "Lima Puluh")).not.toBe(nameKey(4, "5 Puluh"));
    expect(nameKey(4, "N i a n")).toBe(nameKey(4, "Nian"));
    expect(nameKey(3, "Na IX-X")).toBe(nameKey(3, "Na IX - X"));
    expect(nameKey(4, "Simpang Empat Tanjung")).toBe(nameKey(4, "Simpang IV Tanjung"));
    expect(nameKey(4, "Sidua-dua")).toBe(nameKey(4, "Sidua Dua"));
    expect(nameKey(4, "R a i n i s")).toBe(nameKey(4, "Rainis"));
    expect(similarity("kobagma", "kobakma")).toBeCloseTo(6 / 7);
    expect(partDistance("tanahmati", "padangdatatanahmati")).toBe(0);
  });

  it("splits a kecamatan whose villages went to two new ones, and refuses a curated row the editions contradict", () => {
    const base: [string, string][] = [
      ["10", "X"],
      ["10.01", "KAB. Y"],
    ];
    const A = new Map<string, string>([
      ...base,
      ["10.01.01", "Alfa"],
      ["10.01.01.2001", "Mawar"],
      ["10.01.01.2002", "Melati"],
      ["10.01.01.2003", "Anggrek"],
      ["10.01.01.2004", "Kenanga"],
    ]);
    const B = new Map<string, string>([
      ...base,
      ["10.01.05", "Beta"],
      ["10.01.05.2001", "Mawar"],
      ["10.01.05.2002", "Melati"],
      ["10.01.06", "Gama"],
      ["10.01.06.2001", "Anggrek"],
      ["10.01.06.2002", "Kenanga"],
    ]);
    const { links } = resolveTransition(A, B, []);
    expect(links.get("10.01.01")).toEqual([
      { to: "10.01.05", basis: "split", confidence: 0.45 },
      { to: "10.01.06", basis: "split", confidence: 0.45 },
    ]);
    expect(links.get("10.01.01.2003")).toEqual([{ to: "10.01.06.2001", basis: "same_name", confidence: 0.95 }]);
    expect(() => resolveTransition(A, B, [{ edition: "2017", oldCode: "10.01", newCode: "10.01.05", relation: "successor", source: "none" }])).toThrow(
      /must leave/,
    );
  });

  it("reads quoted CSV fields", () => {
    expect(csvFields('2015,12.07.28.1007,"Lubuk Pakam I,II"')).toEqual(["2015", "12.07.28.1007", "Lubuk Pakam I,II"]);
    expect(csvFields('a,"say ""hi""",')).toEqual(["a", 'say "hi"', ""]);
  });
});

function regionHistoryMigration(): string {
  const dir = join(import.meta.dirname, "..", "..", "migrations");
  const journal = JSON.parse(readFileSync(join(dir, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const tag = journal.entries.map((e) => e.tag).find((t) => /region_history$/.test(t));
  if (!tag) throw new Error("no region_history migration in migrations/meta/_journal.json");
  return readFileSync(join(dir, `${tag}.sql`), "utf8");
}
