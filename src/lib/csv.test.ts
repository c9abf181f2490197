import { describe, expect, it } from "vitest";
import { csvLine, parseCsvRows, readCsvColumn } from "./csv.ts";

describe("CSV (src/lib/csv.ts)", () => {
  it("reads one column: quoted fields with commas, quotes and line breaks; unquoted lines whole; blank lines skipped", () => {
    const text = '\uFEFF"Jl. Braga No. 8, Braga, Bandung"\r\nCihapit, Bandung Wetan, Kota Bandung\n\n"Gedung ""Sate""\nBandung",other column\n  Dago  ';
    expect(readCsvColumn(text)).toEqual(["Jl. Braga No. 8, Braga, Bandung", "Cihapit, Bandung Wetan, Kota Bandung", 'Gedung "Sate"\nBandung', "Dago"]);
    expect(readCsvColumn("")).toEqual([]);
    expect(readCsvColumn('"unterminated, quote')).toEqual(["unterminated, quote"]);
  });

  it("writes a line: quotes what needs quoting, empties nulls, and never writes a formula", () => {
    expect(csvLine(["a", "b, c", 'say "hi"', null, 0.93, "x\ny"])).toBe('a,"b, c","say ""hi""",,0.93,"x\ny"');
    expect(csvLine(["=HYPERLINK(1)", "+62", "-", "@x", "plain"])).toBe("'=HYPERLINK(1),'+62,'-,'@x,plain");
    expect(csvLine([-1])).toBe("-1");
  });

  it("reads back what it writes", () => {
    const values = ["Jl. A, No. 1", 'He said "yes"', "two\nlines"];
    expect(readCsvColumn(values.map((v) => csvLine([v])).join("\r\n"))).toEqual(values);
  });
});

describe("parseCsvRows", () => {
  it("reads quoted commas, doubled quotes and line breaks; CRLF lines only when asked", () => {
    const text = 'a,"b, c","say ""hi"""\r\n1,"two\r\nlines",3\r\n';
    expect(parseCsvRows(text, { crlf: true })).toEqual([
      ["a", "b, c", 'say "hi"'],
      ["1", "two\r\nlines", "3"],
    ]);
    expect(() => parseCsvRows("a,b\r\nc,d", { crlf: true })).toThrow("does not end with CRLF");
    expect(parseCsvRows("a,b\nc,d", { crlf: false })).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    // with crlf a lone LF is a character of its field: `a\nb` is one unfinished field
    expect(() => parseCsvRows("a\nb", { crlf: true })).toThrow();
  });
});
