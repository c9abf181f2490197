import { describe, expect, it } from "vitest";
import { LEVELS } from "../codes";
import { LEVEL_RECORD } from "../schemas";
import { csvColumns, downloadName, EXPORT_COLUMNS, EXPORT_ONLY_COLUMNS, exportId, exportKey } from "./files";

describe("bulk export files", () => {
  it("have the columns of the list answers' records, then the files' own (the order of the answers is checked by the Worker test)", () => {
    // replaced_by: by-id answers of retired codes only, never in a list.
    const listed = (level: (typeof LEVELS)[number]) => Object.keys(LEVEL_RECORD[level].shape).filter((f) => f !== "replaced_by");
    for (const level of LEVELS) {
      const own = EXPORT_ONLY_COLUMNS[level];
      expect([...EXPORT_COLUMNS[level].slice(0, EXPORT_COLUMNS[level].length - own.length)].sort(), level).toEqual(listed(level).sort());
      expect(EXPORT_COLUMNS[level].slice(EXPORT_COLUMNS[level].length - own.length), level).toEqual(own);
    }
    expect(EXPORT_ONLY_COLUMNS.kelurahan).toEqual(["bps_code"]);
  });

  it("write the population as three CSV columns", () => {
    expect(csvColumns("kelurahan")).toEqual(EXPORT_COLUMNS.kelurahan);
    expect(csvColumns("kabupaten").slice(-6)).toEqual(["area_km2", "population_male", "population_female", "population_total", "density_per_km2", "bps_code"]);
  });

  it("are keyed by an id that changes with the seed or the village boundaries, and downloaded under names that say what they hold", () => {
    const id = exportId({ checksum: "38824b907eb2a2a6", boundaries: { kelurahan: { checksum: "243b6d79186a215c" } } });
    expect(id).toBe("38824b90243b6d79");
    expect(exportKey(id, "kabupaten.csv")).toBe("wilayah/v4/38824b90243b6d79/kabupaten.csv");
    expect(downloadName(id, "kelurahan.geojson")).toBe("wilayah-kelurahan-38824b90243b6d79.geojson");
    expect(downloadName(id, "LICENSE")).toBe("wilayah-38824b90243b6d79-LICENSE.txt");
  });
});
