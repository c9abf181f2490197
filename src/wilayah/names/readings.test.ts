import { describe, expect, it } from "vitest";
import { WordList } from "./lexicon.ts";
import { MAX_READINGS, MAX_TOKENS, type NameReading, nameReadings } from "./readings.ts";
import { NameTable } from "./table.ts";
import { shippedLexicon, shippedTable } from "./testing.ts";

const shipped = { lexicon: shippedLexicon, table: shippedTable };
const read = (q: string) => nameReadings(q, shipped);
const texts = (list: NameReading[]) => list.map((r) => r.q);

describe("name readings (src/wilayah/names/readings.ts)", () => {
  it("the issue's examples read as the official words, tagged with their kind", () => {
    const cases: [string, string, NameReading["kind"]][] = [
      ["pematang siantar", "pematangsiantar", "spacing"],
      ["bukit tinggi", "bukittinggi", "spacing"],
      ["padangpanjang", "padang panjang", "spacing"],
      ["tg pinang", "tanjung pinang", "abbreviation"],
      ["sby", "surabaya", "abbreviation"],
      ["kab bdg", "kab bandung", "abbreviation"],
      ["soerabaja", "surabaya", "spelling"],
      ["buitenzorg", "kota bogor", "historic"],
      ["fort de kock", "kota bukittinggi", "historic"],
    ];
    for (const [q, expected, kind] of cases) {
      const readings = read(q);
      expect(readings[0]?.q, q).toBe(expected);
      expect(readings[0].kind, q).toBe(kind);
    }
  });

  it("says what was rewritten", () => {
    expect(read("kab bdg")[0].rewrites).toEqual([{ typed: "bdg", read: "bandung", kind: "abbreviation" }]);
    expect(read("bukit tinggi")[0].rewrites).toEqual([{ typed: "bukit tinggi", read: "bukittinggi", kind: "spacing" }]);
  });

  it("reads every old word of a query, keeping commas and parents", () => {
    expect(read("soerabaja, djawa timoer")[0].q).toBe("surabaya, jawa timur");
    expect(read("tjilatjap djawa tengah")[0].q).toBe("cilacap jawa tengah");
    expect(read("kec. tg pinang timur")[0].q).toBe("kec. tanjung pinang timur");
  });

  it("an abbreviation glued to its word by the dot is cut there", () => {
    expect(texts(read("tg.pinang"))).toEqual(["tanjung pinang"]);
    expect(texts(read("kab.garut"))).toEqual(["kab. garut"]);
    expect(texts(read("kab.bdg"))).toEqual(["kab. bandung"]);
  });

  it("the table and old spellings read only words that match nothing as typed; joins are always tried", () => {
    // kp, pd, ps are words of official names (Kp. Tempel, Pd. Panjang, Ps. Tebing Tinggi): read as typed.
    for (const w of ["kp", "pd", "ps"]) expect(shippedLexicon.has(w), w).toBe(true);
    expect(read("kp baru")).toEqual([]);
    expect(read("pd panjang")).toEqual([]);
    // A table entry of several words is read when one of its words is dead (`de` is a word, `fort` none).
    expect(texts(read("fort de kock"))).toEqual(["kota bukittinggi"]);
    // Known words are joined all the same: the phrase cannot find the compound.
    expect(texts(read("bukit tinggi"))).toEqual(["bukittinggi", "bukik tinggi"]);
  });

  it("a variant spelling is read both ways, known word or not, after the other readings (Sei and Sungai, Bukik and Bukit)", () => {
    expect(texts(read("sungai rampah"))).toContain("sei rampah");
    expect(texts(read("sei kakap"))).toContain("sungai kakap");
    expect(read("sei kakap").find((r) => r.q === "sungai kakap")?.rewrites).toEqual([{ typed: "sei", read: "sungai", kind: "abbreviation" }]);
    expect(texts(read("bukit barisan"))).toContain("bukik barisan");
  });

  it("a cut at a glued dot is a spacing rewrite", () => {
    expect(read("kab.garut")[0]).toMatchObject({ kind: "spacing", rewrites: [{ typed: "kab.garut", read: "kab garut", kind: "spacing" }] });
    expect(read("tg.pinang")[0].kind).toBe("abbreviation");
  });

  it("no reading for a query the vocabulary knows as typed, nor for level words", () => {
    for (const q of ["bandung", "kab garut", "kec. coblong", "gambir jakarta", "jaya", "soe", "jogjakarta", "kota bandung", "40135", "32.73"]) {
      expect(read(q), q).toEqual([]);
    }
  });

  it("a level word joins into a compound (`kota baru` -> Kotabaru); street words are not read", () => {
    expect(texts(read("kota baru"))).toEqual(["kotabaru"]);
    expect(texts(read("jl merdeka sby"))).toEqual(["jl merdeka surabaya"]);
  });

  it("the word being typed may be the start of a word", () => {
    expect(texts(read("padangpanj"))).toContain("padang panj");
    expect(texts(read("soerab"))[0]).toBe("surab");
  });

  it("typos are not split into rare words", () => {
    for (const q of ["dunili", "kuranij hulu", "tehmawang muntai", "siaksak"]) expect(read(q), q).toEqual([]);
  });

  it("bounded: at most MAX_READINGS, none past MAX_TOKENS words", () => {
    const lexicon = new WordList(
      [..."abcdefghij"].flatMap((c) => [
        { w: `${c}${c}${c}`, n: 1 },
        { w: `${c}${c}${c}${c}${c}${c}`, n: 1 },
      ]),
    );
    const q = "aaa aaa bbb bbb ccc ccc ddd ddd";
    const many = nameReadings(q, { lexicon, table: new NameTable([]) });
    expect(many.length).toBe(MAX_READINGS);
    expect(nameReadings(`${q} eee`, { lexicon, table: new NameTable([]) })).toEqual([]);
    expect(q.split(" ").length).toBe(MAX_TOKENS);
  });

  it("cheap: well under a millisecond a query", () => {
    const qs = ["soerabaja, djawa timoer", "pematang siantar", "kab bdg", "tg.pinang", "fort de kock", "bandung", "padangpanjang"];
    for (const q of qs) read(q); // warm
    const t = performance.now();
    for (let i = 0; i < 200; i++) for (const q of qs) read(q);
    expect((performance.now() - t) / (200 * qs.length)).toBeLessThan(1);
  });
});
