import { describe, expect, it } from "vitest";
import type { Level } from "../codes.ts";
import { nameTable } from "../names/shipped.ts";
import { normalizeSearchText } from "../normalize.ts";
import { vocabulary } from "../search/vocabulary.ts";
import { parseAddress } from "./parse.ts";
import { phrasesOf } from "./phrases.ts";
import { type Lookup, type RegionHit, resolve } from "./resolve.ts";

const LEVELS: Level[] = ["provinsi", "kabupaten", "kecamatan", "kelurahan"];
/** A small world: two villages named Sukamaju (Coblong and Cidadap, Kota Bandung), with their parents, and their postal codes. */
const region = (id: string, name: string, parent: string | null, postal: string | null = null): RegionHit => ({
  id,
  level: LEVELS[id.split(".").length - 1],
  name,
  altName: name.replace(/^(Kota|Kabupaten) /, ""),
  parent,
  postal,
});
const world = [
  region("32", "Jawa Barat", null),
  region("32.73", "Kota Bandung", "Jawa Barat"),
  region("32.04", "Kabupaten Bandung", "Jawa Barat"),
  region("32.73.02", "Coblong", "Kota Bandung, Jawa Barat"),
  region("32.73.03", "Cidadap", "Kota Bandung, Jawa Barat"),
  region("32.04.01", "Sukasari", "Kabupaten Bandung, Jawa Barat"),
  region("32.73.02.1001", "Sukamaju", "Coblong, Kota Bandung, Jawa Barat", "40132"),
  region("32.73.03.1001", "Sukamaju", "Cidadap, Kota Bandung, Jawa Barat", "40141"),
];
/** The lookup a database holding `world` answers: each region by its name and its bare kabupaten name. */
function lookup(byCode: Lookup["byCode"] = new Map()): Lookup {
  const byTerm: Lookup["byTerm"] = new Map();
  for (const hit of world) {
    for (const term of new Set([hit.name, hit.altName].map(normalizeSearchText))) byTerm.set(term, [...(byTerm.get(term) ?? []), { hit, former: false }]);
  }
  const byPostal: Lookup["byPostal"] = new Map();
  for (const hit of world) if (hit.postal) byPostal.set(hit.postal, [...(byPostal.get(hit.postal) ?? []), hit]);
  return { byTerm, byPostal, byCode, unknownCodes: new Set() };
}
const ctx = { lexicon: vocabulary(), table: nameTable() };
const answer = (text: string) => {
  const parsed = parseAddress(text);
  return resolve(parsed, phrasesOf(parsed, ctx), lookup());
};

describe("address resolution (src/wilayah/addresses/resolve.ts)", () => {
  it("the candidate whose chain explains the most of the text wins, surely", () => {
    const r = answer("Sukamaju, Kec. Coblong, Kota Bandung");
    expect(r.top?.id).toBe("32.73.02.1001");
    expect(r.confidence).toBeGreaterThan(0.9);
    expect(r.warnings).toEqual([]);
    expect(r.matched.map((m) => [m.level, m.text])).toEqual([
      ["kelurahan", "Sukamaju"],
      ["kecamatan", "Coblong"],
      ["kabupaten", "Bandung"],
    ]);
  });

  it("a name two villages bear: low confidence, ambiguous, the other one as an alternative; the postal code decides", () => {
    const r = answer("Sukamaju, Kota Bandung");
    expect(r.confidence).toBeLessThan(0.5);
    expect(r.warnings).toContain("ambiguous");
    expect(r.alternatives.map((a) => a.hit.id)).toHaveLength(1);
    const postal = answer("Sukamaju, Kota Bandung 40141");
    expect(postal.top?.id).toBe("32.73.03.1001");
    expect(postal.matched).toContainEqual(expect.objectContaining({ via: "postal_code", text: "40141" }));
  });

  it("warns when the postal code or the kabupaten written does not fit the answer", () => {
    expect(answer("Sukamaju, Coblong, Kota Bandung 40141").warnings).toContain("postal_code_mismatch");
    const twin = answer("Sukamaju, Coblong, Kabupaten Bandung");
    expect(twin.top?.id).toBe("32.73.02.1001");
    expect(twin.warnings).toContain("kabupaten_inconsistent");
  });

  it("answers a kecamatan when no village fits, with its area to expand; nothing when nothing matches", () => {
    const r = answer("Xyzzyq, Kec. Coblong, Kota Bandung");
    expect(r.top?.id).toBe("32.73.02");
    expect(r.expand).toBe("32.73.02");
    expect(answer("Jl. Merdeka No. 5")).toMatchObject({ top: null, confidence: 0, alternatives: [], warnings: [] });
  });

  it("compares the words as written against a village's names when a second round brings it (typos the vocabulary cannot correct)", () => {
    const parsed = parseAddress("Sukamajuu, Kec. Coblong, Kota Bandung");
    const r = resolve(parsed, phrasesOf(parsed, ctx), lookup(), { extra: [world[5], world[6]] });
    expect(r.top?.id).toBe("32.73.02.1001");
    expect(r.warnings).toContain("typo_corrected");
  });

  it("a kecamatan written with its level word binds the answer: a village of that name elsewhere is kecamatan_inconsistent", () => {
    const r = answer("Kel. Sukamaju, Kec. Sukasari, Kota Bandung");
    expect(r.top?.id).toBe("32.04.01");
    expect(r.warnings).toContain("kecamatan_inconsistent");
    expect(r.confidence).toBeLessThan(0.5);
    expect(r.alternatives.map((a) => a.hit.id)).toContain("32.73.02.1001");
    expect(answer("Sukamaju, Kec. Coblong, Kota Bandung").warnings).not.toContain("kecamatan_inconsistent");
    // A kecamatan segment that names no kecamatan at all is unknown, not inconsistent.
    expect(answer("Kel. Sukamaju, Kec. Xyzzyq, Kota Bandung").warnings).not.toContain("kecamatan_inconsistent");
  });

  describe("region codes written in the address", () => {
    const at = (id: string) => world.find((w) => w.id === id) as RegionHit;
    // 32.73.09.1001: a code of an earlier edition, now 32.73.02.1001; 32.73.10.1001 was split into both villages.
    const byCode: Lookup["byCode"] = new Map([
      ["32.73.03.1001", [{ hit: at("32.73.03.1001"), former: false, several: false }]],
      ["32.73.09.1001", [{ hit: at("32.73.02.1001"), former: true, several: false }]],
      [
        "32.73.10.1001",
        [
          { hit: at("32.73.02.1001"), former: true, several: true },
          { hit: at("32.73.03.1001"), former: true, several: true },
        ],
      ],
      ["32.73.02", [{ hit: at("32.73.02"), former: false, several: false }]],
    ]);
    const withCodes = (text: string) => {
      const parsed = parseAddress(text);
      return resolve(parsed, phrasesOf(parsed, ctx), lookup(byCode));
    };

    it("a current code picks the village a name alone cannot, and shows in matched", () => {
      const r = withCodes("Sukamaju, Kota Bandung, 32.73.03.1001");
      expect(r.top?.id).toBe("32.73.03.1001");
      expect(r.confidence).toBeGreaterThan(0.9);
      expect(r.warnings).toEqual([]);
      expect(r.matched).toContainEqual({ level: "kelurahan", id: "32.73.03.1001", text: "32.73.03.1001", read: "32.73.03.1001", via: "code", reading: null });
      expect(r.matched).toContainEqual(expect.objectContaining({ level: "kelurahan", via: "name", text: "Sukamaju" }));
    });

    it("a code of an earlier edition, dotted or as ten digits, is read through its successor with former_code", () => {
      for (const text of ["Sukamaju 3273091001", "Kode wilayah: 32.73.09.1001", "3273091001"]) {
        const r = withCodes(text);
        expect(r.top?.id, text).toBe("32.73.02.1001");
        expect(r.warnings, text).toContain("former_code");
        expect(r.confidence, text).toBeGreaterThan(0.9);
        expect(r.matched, text).toContainEqual(expect.objectContaining({ via: "former_code", read: "32.73.09.1001" }));
      }
    });

    it("a split code leaves the choice to the names; a kecamatan code narrows a village name", () => {
      expect(withCodes("Sukamaju, Kec. Cidadap, 32.73.10.1001").top?.id).toBe("32.73.03.1001");
      const split = withCodes("32.73.10.1001");
      expect(split.warnings).toContain("ambiguous");
      expect(split.confidence).toBeLessThan(0.5);
      expect(withCodes("Sukamaju 32.73.02").top?.id).toBe("32.73.02.1001");
    });

    it("a number that is no code of any edition is no evidence; a village code of that kind warns unknown_code", () => {
      const parsed = parseAddress("Sukamaju, Coblong, Kota Bandung, 32.73.99.1001");
      const r = resolve(parsed, phrasesOf(parsed, ctx), { ...lookup(byCode), unknownCodes: new Set(["32.73.99.1001"]) });
      expect(r.top?.id).toBe("32.73.02.1001");
      expect(r.confidence).toBeGreaterThan(0.9);
      expect(r.warnings).toEqual(["unknown_code"]);
      // `12.50` has a kabupaten code's shape and is no code either: no evidence, and no warning (prices and decimals look so)
      const short = parseAddress("Sukamaju, Coblong, Kota Bandung, 12.50");
      expect(resolve(short, phrasesOf(short, ctx), { ...lookup(byCode), unknownCodes: new Set(["12.50"]) }).warnings).toEqual([]);
    });
  });
});
