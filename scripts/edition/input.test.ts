import { describe, expect, it } from "vitest";
import { toDottedId } from "../../src/wilayah/codes.ts";
import { checkEdition, decodeList, displayCase, largeDrops, readList } from "./input.ts";

const today = new Map([
  ["32", "Jawa Barat"],
  ["32.73", "Kota Bandung"],
  ["32.73.09", "Bandung Wetan"],
  ["32.73.09.1001", "Cihapit"],
  ["31.01", "Kabupaten Administrasi Kepulauan Seribu"],
]);

const lines = (...rows: string[]) => ["code,name", ...rows].join("\n");

describe("edition list input", () => {
  it("reads codes dotted or not and names as an annex writes them", () => {
    const { entries, problems } = readList(
      lines("32,JAWA BARAT", "3273,KOTA BANDUNG", "327309,BANDUNG WETAN", "3273091001,CIHAPIT", "32.73.09.1002,TAMAN SARI", "3204,KAB. BANDUNG"),
      today,
    );
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.code, e.name])).toEqual([
      ["32", "Jawa Barat"],
      ["32.73", "Kota Bandung"],
      ["32.73.09", "Bandung Wetan"],
      ["32.73.09.1001", "Cihapit"],
      ["32.73.09.1002", "Taman Sari"],
      ["32.04", "Kabupaten Bandung"],
    ]);
  });

  it("spells prefixes out and keeps today's spelling of an unchanged name", () => {
    const { entries } = readList(lines("31,DKI JAKARTA", "3101,KAB. ADM. KEPULAUAN SERIBU", "3171,KOTA ADM. JAKARTA PUSAT"), today);
    expect(entries.map((e) => e.name)).toEqual(["Dki Jakarta", "Kabupaten Administrasi Kepulauan Seribu", "Kota Administrasi Jakarta Pusat"]);
    expect(displayCase("SUKAMAJU II")).toBe("Sukamaju II");
    expect(displayCase("Tanjung Balai")).toBe("Tanjung Balai");
  });

  it("names every problem with its line", () => {
    const { problems } = readList(
      lines(
        "32,JAWA BARAT",
        "3X73,KOTA BANDUNG", // 3: malformed
        "32.73.9,X", // 4: malformed
        "32,JAWA BARAT", // 5: duplicate
        "3273,", // 6: empty name
        "3204,KOTA BANDUNG", // 7: prefix contradicts code
        "3274,KAB. CIREBON", // 8: prefix contradicts code
        "3275,BEKASI", // 9: no prefix
        "330101,KEC", // 10: parent 33.01 missing
        '3276,"KOTA DEPOK', // 11: unterminated quote
        "3277,KOTA CIMAHI,EXTRA", // 12: three fields
      ),
      today,
    );
    expect(problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 11, 12, 10]);
    expect(problems.map((p) => p.message).join("\n")).toMatch(/malformed code "3X73"[\s\S]*duplicate code 32 \(first on line 2\)[\s\S]*empty name for 32.73/);
    expect(problems[4].message).toMatch(/prefix says kota, the code says kabupaten/);
    expect(problems[7].message).toMatch(/unterminated quote/);
    expect(problems[9].message).toBe("33.01.01: its parent 33.01 is not in the file");
  });

  it("refuses a name holding an invisible (control, format or bidirectional) character, naming its line; reads names in NFC", () => {
    const { entries, problems } = readList(
      lines("32,JAWA BARAT", "3273,KOTA BANDUNG", "327301,CIHAPIT\u200b\u2060", "327302,SUMUR\u202eBANDUNG", "327303,CAFE\u0301"),
      today,
    );
    expect(problems).toEqual([
      { line: 4, message: expect.stringMatching(/^32\.73\.01: the name holds the invisible character U\+200B/) },
      { line: 5, message: expect.stringMatching(/^32\.73\.02: the name holds the invisible character U\+202E/) },
    ]);
    expect(entries.find((e) => e.code === "32.73.03")?.name).toBe("Caf\u00e9");
  });

  it("refuses a wrong header", () => {
    expect(readList("kode,nama\n32,JAWA BARAT", today).problems).toEqual([{ line: 1, message: 'the header must be "code,name", got "kode,nama"' }]);
  });

  it("reads UTF-8 and Windows-1252", () => {
    expect(decodeList(new TextEncoder().encode("\uFEFFcode,name\n32,SEMPU\u2019")).encoding).toBe("utf-8");
    const cp1252 = decodeList(Uint8Array.from([...Buffer.from("code,name\n32,MA"), 0x92, ...Buffer.from("RANG")]));
    expect(cp1252).toEqual({ text: "code,name\n32,MA\u2019RANG", encoding: "windows-1252" });
  });

  it("checks the edition id and date against the current edition", () => {
    const current = { id: "2025" };
    expect(checkEdition("2026", "2026-03-01", current, ["2025"])).toEqual([]);
    expect(checkEdition("2024", "2026-03-01", current, ["2025"]).map((p) => p.message)).toEqual([
      "--id 2024 is not later than the current edition 2025",
      "--date 2026-03-01 is not in the edition's year 2024",
    ]);
    expect(checkEdition("2025", "2025-01-01", current, ["2025"])[0].message).toMatch(/already known/);
    expect(checkEdition("26", "2026-02-30", current, ["2025"]).map((p) => p.message)).toEqual([
      '--id "26": an edition id is a year with an optional letter (2026, 2026b)',
      '--date "2026-02-30": a date is YYYY-MM-DD',
    ]);
    expect(checkEdition("2026b", "2026-01-05", { id: "2026", date: "2026-03-01" }, ["2026"])[0].message).toBe(
      "--date 2026-01-05 is older than the current edition 2026 (2026-03-01)",
    );
  });

  it("finds a level that loses more than 2% of its codes", () => {
    const codes = Array.from({ length: 100 }, (_, i) => `32.73.09.${String(1001 + i)}`);
    expect(largeDrops(codes, new Set(codes.slice(2)))).toEqual([]);
    expect(largeDrops(codes, new Set(codes.slice(3)))).toEqual([{ level: "kelurahan/desa", dropped: 3, of: 100 }]);
    expect(toDottedId("3273091001")).toBe("32.73.09.1001");
    expect(toDottedId("327309100")).toBeNull();
  });
});
