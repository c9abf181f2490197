/** The seam for accepted reports: each report field lands in the family it corrects, citing the report's basis. */
import { describe, expect, it } from "vitest";
import { REPORT_FIELD_FAMILY, reportCorrection } from "./service";

describe("reportCorrection", () => {
  it("files an accepted report under its family with its basis", () => {
    expect(
      reportCorrection({
        report_id: "rep_1",
        region_code: "32.73.09.1001",
        field: "postal_code",
        value: "40114",
        basis: "Pos Indonesia letter",
        accepted_at: "2026-11-01T00:00:00Z",
      }),
    ).toEqual({
      family: "postal_code",
      correction: {
        kind: "report",
        value: "postal_code: 40114",
        basis: "Pos Indonesia letter",
        source_file: "seed/corrections.csv",
        report_id: "rep_1",
        accepted_at: "2026-11-01T00:00:00Z",
      },
    });
    for (const field of ["name", "parent", "postal_code", "coordinates", "boundary", "population", "missing_child", "other"])
      expect(REPORT_FIELD_FAMILY[field], field).toBeTruthy();
  });
});
