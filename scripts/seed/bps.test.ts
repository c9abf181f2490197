import { describe, expect, it } from "vitest";
import { type BpsRow, bpsSql, parseBpsCrosswalk, resolveBps } from "./bps.ts";

const HEADER = "level,bps_code,bps_name,bps_period,kemendagri_code,kemendagri_name,current_code,match";
const row = (code: string, currentId: string | null, level: BpsRow["level"] = "kecamatan"): BpsRow => ({
  level,
  code,
  name: null,
  period: "2025_2",
  kemendagriCodes: currentId ? [currentId] : [],
  kemendagriName: null,
  currentId,
  match: currentId ? "same_code_same_name" : "none",
});

describe("BPS crosswalk for the seed", () => {
  it("parses the file's rows, several Kemendagri codes split, empty fields null; refuses a malformed row", () => {
    const rows = parseBpsCrosswalk(
      `${HEADER}\nkecamatan,7210121,SIGI KOTA,2025_2,72.10.12|72.10.02,DOLO|PALOLO,,none\nkelurahan,1212300010,,2020_2,12.07.28.1007,"LUBUK PAKAM I,II",12.07.28.1007,same_code_same_name\n`,
    );
    expect(rows[0]).toMatchObject({ code: "7210121", kemendagriCodes: ["72.10.12", "72.10.02"], currentId: null, match: "none" });
    expect(rows[1]).toMatchObject({ name: null, kemendagriName: "LUBUK PAKAM I,II", currentId: "12.07.28.1007" });
    expect(() => parseBpsCrosswalk(`${HEADER}\nkecamatan,327319,X,2025_2,32.73.06,X,32.73.06,same_code_same_name\n`)).toThrow(/7 digits/);
    expect(() => parseBpsCrosswalk(`${HEADER}\nkecamatan,3273190,X,2025_2,32.73.06,X,,same_code_same_name\n`)).toThrow(/match is none/);
  });

  it("follows a code a later edition retired to its one successor, leaves it unmapped with several, never guesses", () => {
    const current = new Map([
      ["32.73.06", { name: "Cicendo", level: "kecamatan" }],
      ["32.73.40", { name: "A", level: "kecamatan" }],
      ["32.73.41", { name: "B", level: "kecamatan" }],
    ]);
    const successors: Record<string, string[]> = { "32.73.01": ["32.73.40"], "32.73.02": ["32.73.40", "32.73.41"] };
    const resolved = resolveBps(
      [row("3273190", "32.73.06"), row("3273010", "32.73.01"), row("3273020", "32.73.02"), row("7210121", null)],
      current,
      (id) => successors[id] ?? [],
      (id) => id in successors,
    );
    expect(resolved.map((r) => [r.currentId, r.currentName])).toEqual([
      ["32.73.06", "Cicendo"],
      ["32.73.40", "A"],
      [null, null],
      [null, null],
    ]);
    expect(bpsSql(resolved)).toContain("('3273010',3,NULL,'2025_2','32.73.01',NULL,'32.73.40','A','same_code_same_name')");
    expect(() =>
      resolveBps(
        [row("3273990", "32.73.99")],
        current,
        () => [],
        () => false,
      ),
    ).toThrow(/no edition holds/);
    expect(() =>
      resolveBps(
        [row("3273", "32.73.06", "kabupaten")],
        current,
        () => [],
        () => true,
      ),
    ).toThrow(/no kabupaten/);
  });
});
