/**
 * The sources manifest (seed/sources/sources.json) against the attribution file and the editions:
 * the committed one passes, and each kind of disagreement stops the build.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SEED_DIR } from "../lib.ts";
import { renameTables } from "./apply.ts";
import { readRegistry } from "./history-editions.ts";
import { loadSources, readSourcesManifest, type SourcesManifest, sourceNotes, sourcesSql } from "./sources.ts";

const EDITIONS = readRegistry(SEED_DIR).editions;
const manifest = (): SourcesManifest => readSourcesManifest(SEED_DIR);
const readme = readFileSync(join(SEED_DIR, "sources", "README.md"), "utf8");
const files = readdirSync(join(SEED_DIR, "sources"));

describe("seed/sources/sources.json", () => {
  it("covers every source file and edition, with the README's versions and licences", () => {
    const rows = loadSources(SEED_DIR, EDITIONS);
    expect(rows.filter((r) => r.kind === "regulation").map((r) => r.edition)).toEqual(EDITIONS.map((e) => e.id));
    expect(rows.find((r) => r.id === "idn-area-data")).toMatchObject({ version: "4.0.1", licence: "ODbL-1.0" });
    // a source without a version or licence says why
    for (const r of rows.filter((r) => r.kind === "dataset" && (r.version === null || r.licence === null))) expect(r.note, r.id).toBeTruthy();
  });

  it("stops on a version, licence, file or regulation the README and editions do not state", () => {
    // each case: what it breaks, the manifest with it broken, the error expected
    const cases: [string, (m: SourcesManifest) => void, RegExp][] = [
      [
        "wrong commit",
        (m) => {
          m.datasets[2].version = "deadbee";
        },
        /does not state version deadbee/,
      ],
      [
        "wrong licence",
        (m) => {
          m.datasets[2].licence = "ODbL-1.0";
        },
        /does not state licence ODbL-1.0/,
      ],
      [
        "licence dropped",
        (m) => {
          m.datasets[2].licence = null;
          m.datasets[2].note = "x";
        },
        /licence null, but .* states one/,
      ],
      [
        "silent gap",
        (m) => {
          m.datasets[2].version = null;
          m.datasets[2].note = null;
        },
        /says nothing of it/,
      ],
      [
        "unknown family",
        (m) => {
          m.datasets[0].families = ["names" as never];
        },
        /unknown family "names"/,
      ],
      [
        "file of no dataset",
        (m) => {
          m.datasets = m.datasets.filter((d) => d.id !== "cahyadsn-kodepos");
        },
        /wilayah-postal-codes\.csv belongs to no dataset/,
      ],
      [
        "cited id renamed",
        (m) => {
          m.datasets[8].id = "bps-2025";
        },
        /dataset "bps-2025_2" is missing/,
      ],
      [
        "regulation text",
        (m) => {
          m.regulations[0].regulation = "Permendagri 1/2015";
        },
        /is not seed\/editions\.json's/,
      ],
    ];
    for (const [what, change, error] of cases) {
      const m = manifest();
      change(m);
      expect(() => loadSources(SEED_DIR, EDITIONS, m, readme, files), what).toThrow(error);
    }
  });

  it("takes an edition's date from the registry (edition:add) before the manifest", () => {
    const rows = loadSources(SEED_DIR, [...EDITIONS.slice(0, -1), { ...EDITIONS[EDITIONS.length - 1], date: "2025-05-01" }]);
    expect(rows.at(-1)).toMatchObject({ id: "edition-2025", date: "2025-05-01" });
  });
});

describe("sourceNotes", () => {
  it("cites each hand correction once, on every region it concerns", () => {
    const notes = sourceNotes({
      curated: [{ edition: "2022b", oldCode: "91.01", newCode: "93.01", relation: "successor", source: "UU 14/2022" }],
      nameReadings: [
        { typed: "bdg", reads: "bandung", kind: "abbreviation", id: "32.73", source: "SNI 7657:2010" },
        { typed: "tg", reads: "tanjung", kind: "generic", source: "maps" },
      ],
      aliases: [{ id: "31", alias: "Jakarta", kind: "short", source: "common use" }],
      coded: [
        { id: "31", kind: "alias", value: "jakarta" },
        { id: "31", kind: "alt_name", value: "DKI Jakarta" },
      ],
      derivedPoints: ["72.06.20"],
      islandMoves: [],
    });
    expect(notes.map((n) => [n.regionId, n.kind])).toEqual([
      ["31", "alias"],
      ["31", "alt_name"],
      ["32.73", "name_reading"],
      ["72.06.20", "derived_point"],
      ["91.01", "curated_history"],
      ["93.01", "curated_history"],
    ]);
    expect(notes.find((n) => n.regionId === "93.01")).toMatchObject({ basis: "UU 14/2022", sourceFile: "seed/history-curated.csv" });
  });
});

describe("sourcesSql", () => {
  it("is SQL seed:apply can stage: its string scanner reads it whole, and the tables are renamed", () => {
    const notes = sourceNotes({
      curated: [],
      nameReadings: [],
      aliases: [{ id: "31", alias: "Jakarta", kind: "short", source: "the city's name" }],
      coded: [],
      derivedPoints: [],
      islandMoves: [],
    });
    const sql = sourcesSql(loadSources(SEED_DIR, EDITIONS), notes);
    const staged = renameTables(sql, new Set(["wilayah_source", "wilayah_source_note"]), "__next");
    expect(staged).toContain("INSERT INTO wilayah_source__next (");
    expect(staged).toContain("INSERT INTO wilayah_source_note__next (");
    expect(staged).toContain("'the city''s name'");
  });
});
