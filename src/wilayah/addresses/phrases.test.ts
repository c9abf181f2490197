import { describe, expect, it } from "vitest";
import { nameTable } from "../names/shipped.ts";
import { vocabulary } from "../search/vocabulary.ts";
import { parseAddress } from "./parse.ts";
import { MAX_PHRASES, type Phrase, phrasesOf } from "./phrases.ts";

const ctx = { lexicon: vocabulary(), table: nameTable() };
const phrases = (text: string) => phrasesOf(parseAddress(text), ctx);
const find = (list: Phrase[], phrase: string) => list.filter((p) => p.phrase === phrase);

describe("address phrases (src/wilayah/addresses/phrases.ts)", () => {
  it("every span of a segment as typed; a marked segment also with what its marker says", () => {
    const list = phrases("Braga, Kec. Sumur Bandung, Kota Bandung");
    expect(find(list, "braga")).toEqual([{ seg: 0, from: 0, to: 1, phrase: "braga", corrections: [], reading: null }]);
    expect(find(list, "sumur bandung")[0]).toMatchObject({ seg: 1, from: 0, to: 2, hint: "kecamatan" });
    expect(find(list, "bandung").map((p) => [p.seg, p.hint, p.kind])).toEqual([
      [1, undefined, undefined], // the second word of `Sumur Bandung`
      [2, "kabupaten", "kota"],
    ]);
    expect(find(list, "kota bandung")[0]).toMatchObject({ seg: 2, hint: "kabupaten" });
  });

  it("a street's words are no phrase (Jl. Bandung in Malang)", () => {
    const list = phrases("Jl. Bandung No. 12, Sumbersari, Kota Malang");
    expect(find(list, "bandung")).toEqual([]);
    expect(find(list, "sumbersari")).toHaveLength(1);
  });

  it("reads names as search does (short forms, spacing) and corrects typos from the vocabulary", () => {
    const list = phrases("kel cihapitt kec bukit kecil kab bdg");
    expect(find(list, "kabupaten bandung")[0]).toMatchObject({ reading: "abbreviation", hint: "kabupaten" });
    expect(find(list, "bukitkecil")[0]).toMatchObject({ reading: "spacing", hint: "kecamatan" });
    expect(find(list, "cihapit")[0]).toMatchObject({ corrections: [{ typed: "cihapitt", matched: "cihapit" }], hint: "kelurahan" });
  });

  it("at most MAX_PHRASES distinct phrases, the spans as typed first: a long run of unknown words does not crowd out the rest", () => {
    const noise = Array.from({ length: 60 }, (_, i) => `qwertz${String.fromCharCode(97 + (i % 26))}${i}`).join(" ");
    const list = phrases(`${noise}, Kota Bandung`);
    expect(new Set(list.map((p) => p.phrase)).size).toBeLessThanOrEqual(MAX_PHRASES);
    expect(find(list, "kota bandung").length).toBeGreaterThan(0);
  });

  it("a word's corrections, remembered after the first address, are the same in the next ones and under another vocabulary its own", () => {
    const first = phrases("kel cihapitt kec coblongg kota bandung");
    expect(phrases("kel cihapitt kec coblongg kota bandung")).toEqual(first);
    expect(find(phrases("Jl. Merdeka, Cihapitt, Bandung"), "cihapit")[0]).toMatchObject({ corrections: [{ typed: "cihapitt", matched: "cihapit" }] });
    // Another vocabulary (a lexicon without `cihapit`) does not see the shipped one's remembered words.
    const lexicon = Object.assign(Object.create(ctx.lexicon) as typeof ctx.lexicon, { similarWords: () => [] });
    const other = phrasesOf(parseAddress("kel cihapitt kec coblongg kota bandung"), { lexicon, table: ctx.table });
    expect(find(other, "cihapit")).toEqual([]);
  });
});
