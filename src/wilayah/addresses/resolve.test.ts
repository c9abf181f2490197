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
  region("32.73.02.1001", "Sukamaju", "Coblong, Kota Bandung, Jawa Barat", "40132"),
  region("32.73.03.1001", "Sukamaju", "Cidadap, Kota Bandung, Jawa Barat", "40141"),
];
/** The lookup a database holding `world` answers: each region by its name and its bare kabupaten name. */
function lookup(): Lookup {
  const byTerm: Lookup["byTerm"] = new Map();
  for (const hit of world) {
    for (const term of new Set([hit.name, hit.altName].map(normalizeSearchText))) byTerm.set(term, [...(byTerm.get(term) ?? []), { hit, former: false }]);
  }
  const byPostal: Lookup["byPostal"] = new Map();
  for (const hit of world) if (hit.postal) byPostal.set(hit.postal, [...(byPostal.get(hit.postal) ?? []), hit]);
  return { byTerm, byPostal };
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
    const r = resolve(parsed, phrasesOf(parsed, ctx), lookup(), [world[5], world[6]]);
    expect(r.top?.id).toBe("32.73.02.1001");
    expect(r.warnings).toContain("typo_corrected");
  });
});
