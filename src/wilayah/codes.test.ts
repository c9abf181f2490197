import { describe, expect, it } from "vitest";
import { isAtOrBelow, LEVELS, levelOf, parentAt, toDottedId, undotted } from "./codes";

describe("wilayah/codes", () => {
  it("turns dotted and undotted codes of every level into the dotted id", () => {
    expect(toDottedId("32")).toBe("32");
    expect(toDottedId("3273")).toBe("32.73");
    expect(toDottedId("327309")).toBe("32.73.09");
    expect(toDottedId("3273091001")).toBe("32.73.09.1001");
    expect(toDottedId(" 32.73.09.1001 ")).toBe("32.73.09.1001");
  });

  it("refuses what is no code of any level", () => {
    for (const bad of ["", "3", "327", "32.7", "32..73", "3273091", "32730910011", "32.73.09.100", "ab", "32-73", "111111111111111111111"]) {
      expect(toDottedId(bad), bad).toBeNull();
    }
  });

  it("tells the level from the dotted id, and undots it", () => {
    expect(["32", "32.73", "32.73.09", "32.73.09.1001"].map(levelOf)).toEqual(["provinsi", "kabupaten", "kecamatan", "kelurahan"]);
    expect(undotted("32.73.09.1001")).toBe("3273091001");
  });

  it("finds the region at each level a code lies in: its province, kabupaten/kota, kecamatan, itself", () => {
    const village = "32.73.09.1001";
    expect(LEVELS.map((level) => parentAt(village, level))).toEqual(["32", "32.73", "32.73.09", "32.73.09.1001"]);
    expect(parentAt("32.73.09", "kabupaten")).toBe("32.73");
    expect(parentAt("32.73", "kabupaten")).toBe("32.73");
    // a desa (2xxx) and a code of a new province (Papua's 9x) are cut the same way
    expect(parentAt("94.71.02.2003", "kecamatan")).toBe("94.71.02");
  });

  it("gives an id above the level back as it is, and tells which ids lie at or below a level", () => {
    expect(parentAt("32", "kecamatan")).toBe("32");
    expect(parentAt("32.73", "kelurahan")).toBe("32.73");
    expect(["32", "32.73", "32.73.09", "32.73.09.1001"].map((id) => isAtOrBelow(id, "kabupaten"))).toEqual([false, true, true, true]);
    expect(["32", "32.73", "32.73.09", "32.73.09.1001"].map((id) => isAtOrBelow(id, "provinsi"))).toEqual([true, true, true, true]);
    expect(["32", "32.73", "32.73.09", "32.73.09.1001"].map((id) => isAtOrBelow(id, "kelurahan"))).toEqual([false, false, false, true]);
  });
});
