import { describe, expect, it } from "vitest";
import { levelOf, toDottedId, undotted } from "./codes";

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
});
