import { describe, expect, it } from "vitest";
import { LEVELS } from "../codes";
import { LEVEL_RECORD } from "../schemas";
import { downloadName, EXPORT_COLUMNS, exportId, exportKey } from "./files";

describe("bulk export files", () => {
  it("have the columns of the list answers' records (their fields every record has), in the same order", () => {
    for (const level of LEVELS) {
      const required = Object.entries(LEVEL_RECORD[level].shape)
        .filter(([, field]) => !field.safeParse(undefined).success)
        .map(([name]) => name);
      expect(EXPORT_COLUMNS[level], level).toEqual(required);
    }
  });

  it("are keyed by an id that changes with the seed or the village boundaries, and downloaded under names that say what they hold", () => {
    const id = exportId({ checksum: "38824b907eb2a2a6", boundaries: { kelurahan: { checksum: "243b6d79186a215c" } } });
    expect(id).toBe("38824b90243b6d79");
    expect(exportKey(id, "kabupaten.csv")).toBe("wilayah/v1/38824b90243b6d79/kabupaten.csv");
    expect(downloadName(id, "kelurahan.geojson")).toBe("wilayah-kelurahan-38824b90243b6d79.geojson");
    expect(downloadName(id, "LICENSE")).toBe("wilayah-38824b90243b6d79-LICENSE.txt");
  });
});
