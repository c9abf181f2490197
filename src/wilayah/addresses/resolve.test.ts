import { describe, expect, it } from "vitest";
import type { Level } from "../codes.ts";
import { nameTable } from "../names/shipped.ts";
import { normalizeSearchText } from "../normalize.ts";
import { vocabulary } from "../search/vocabulary.ts";
import { evidenceOf, type Lookup, within } from "./evidence.ts";
import type { RegionHit } from "./matching.ts";
import { parseAddress } from "./parse.ts";
import { phrasesOf } from "./phrases.ts";
import { matchedOf, resolve, warningsOf } from "./resolve.ts";
import { type Candidate, candidates, frameOf, oddsOf, rank, scoreCandidates } from "./score.ts";

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

describe("address resolution, step by step: candidates, cover, rank, explain", () => {
  const at = (id: string) => world.find((w) => w.id === id) as RegionHit;
  const byCode: Lookup["byCode"] = new Map([["32.73.03.1001", [{ hit: at("32.73.03.1001"), former: false, several: false }]]]);
  const evidence = (text: string, extra: RegionHit[] = []) => {
    const parsed = parseAddress(text);
    return evidenceOf(parsed, phrasesOf(parsed, ctx), lookup(byCode), extra);
  };
  const scored = (e: ReturnType<typeof evidence>) => {
    const c = candidates(e);
    return scoreCandidates(e, c, frameOf(e, c));
  };

  it("within: related to one of the areas (inside it or a parent of it); no areas bind nothing", () => {
    expect(within("32.73.02.1001", [])).toBe(true);
    expect(within("32.73.02.1001", ["32.04", "32.73"])).toBe(true);
    expect(within("32", new Set(["32.73.02"]))).toBe(true);
    expect(within("32.04.01", ["32.73"])).toBe(false);
  });

  it("evidence: the areas the text names, the kecamatan it labels, its postal code's villages", () => {
    const e = evidence("Sukamaju, Kec. Coblong, Kota Bandung 40141");
    expect(e.scope).toEqual(["32.73", "32.04"]); // Kota and Kabupaten Bandung: people write one for the other
    expect([...e.labelled.ids]).toEqual(["32.73.02"]);
    expect([...e.postal.ids]).toEqual(["32.73.03.1001"]);
    expect([...e.postal.kecs]).toEqual(["32.73.03"]);
  });

  it("candidates: each region a phrase names, with its matches; a code is a segment of one word after the text's", () => {
    const c = candidates(evidence("Sukamaju, Kec. Coblong, Kota Bandung"));
    expect([...c.hits.keys()]).toEqual(["32.73.02.1001", "32.73.03.1001", "32.73.02", "32.73", "32.04"]);
    expect(c.byRegion.get("32.73.02")).toEqual([expect.objectContaining({ seg: 1, from: 0, to: 1, phrase: "coblong", via: "name" })]);
    const coded = candidates(evidence("Kota Bandung 40141, 32.73.03.1001"));
    expect(coded.codes).toEqual([{ text: "32.73.03.1001", id: "32.73.03.1001" }]);
    expect(coded.byRegion.get("32.73.03.1001")).toEqual([expect.objectContaining({ seg: 1, from: 0, to: 1, via: "code", value: 4 })]);
    // The postal code's village no name matched is compared against the words as written, though a code names it.
    expect([...coded.localOnly.keys()]).toEqual(["32.73.03.1001"]);
  });

  it("candidates: a labelled kecamatan the second round found by comparison is matched as a typo", () => {
    const e = evidence("Sukamaju, Kec. Cobloong, Kota Bandung", [at("32.73.02"), at("32.73.03")]);
    expect(e.labelled.fuzzy).toEqual({ seg: 1, length: 1, d: 1, phrase: "coblong" });
    expect(candidates(e).byRegion.get("32.73.02")).toContainEqual(expect.objectContaining({ seg: 1, phrase: "coblong", via: "typo", value: 0.5 }));
  });

  it("frame: the segments' lengths, codes last, and the labelled kabupaten and kecamatan a chain should explain", () => {
    const e = evidence("Sukamaju, Kec. Coblong, Kota Bandung, 32.73.03.1001");
    expect(frameOf(e, candidates(e))).toMatchObject({ segLengths: [1, 1, 1, 1], wordCount: 4, kabSegs: [2], kecSegs: [1] });
    const unknown = evidence("Kel. Sukamaju, Kec. Xyzzyq, Kota Bandung");
    expect(frameOf(unknown, candidates(unknown)).kecSegs).toEqual([]); // a kecamatan label that names none is unknown, not inconsistent
  });

  it("cover: each candidate scored by its chain's best cover, with the postal code's evidence and what it leaves unexplained", () => {
    const s = scored(evidence("Sukamaju, Kec. Coblong, Kota Bandung 40141"));
    const coblong = s.get("32.73.02.1001");
    expect(coblong?.used.map((m) => m.id)).toEqual(["32.73.02.1001", "32.73.02", "32.73"]);
    expect(coblong).toMatchObject({ score: 11.5, postal: "mismatch", kecInconsistent: false });
    expect(s.get("32.73.03.1001")).toMatchObject({ score: 11, postal: "match", kecInconsistent: true });
    expect(s.get("32.04")).toMatchObject({ kabInconsistent: true });
    // Only the named scope is scored.
    const e = evidence("Sukamaju, Kec. Coblong, Kota Bandung");
    expect([...scored({ ...e, scope: ["32.04"] }).keys()]).toEqual(["32.04"]);
  });

  it("cover: words the best exact reading leaves are compared with the second round's regions as written", () => {
    const s = scored(evidence("Sukamajuu, Kec. Coblong, Kota Bandung", [at("32.73.02.1001")]));
    expect(s.get("32.73.02.1001")?.used[0]).toMatchObject({ seg: 0, phrase: "sukamaju", via: "typo" });
  });

  describe("rank and explain", () => {
    const cand = (id: string, score: number): Candidate => ({ hit: at(id), score, used: [], postal: null, kabInconsistent: false, kecInconsistent: false });
    const list = [cand("32.73.02", 5), cand("32.73.02.1001", 5), cand("32.73.03.1001", 6), cand("32.73", 7)];

    it("rank: best first (the finer level on a tie); a labelled kecamatan binds the answer unless a split moved the village", () => {
      const free = rank(list, new Set());
      expect(free?.ranked.map((c) => c.hit.id)).toEqual(["32.73", "32.73.03.1001", "32.73.02.1001", "32.73.02"]);
      expect(free).toMatchObject({ top: { hit: { id: "32.73" } }, outside: undefined, former: false });
      const bound = rank(list.slice(0, 3), new Set(["32.73.02"]));
      expect(bound?.top.hit.id).toBe("32.73.02.1001");
      expect(bound?.outside?.hit.id).toBe("32.73.03.1001");
      const moved = rank(list.slice(0, 3), new Set(["32.73.02"]), new Map([["32.73.03.1001", ["32.73.02.2001"]]]));
      expect(moved).toMatchObject({ top: { hit: { id: "32.73.03.1001" } }, former: true });
      expect(rank([], new Set())).toBe(null);
    });

    it("rank: the answer's share of a softmax over its rivals (not its own parents nor regions inside it) and none of these", () => {
      const choice = rank([cand("32.73.02.1001", 10), cand("32.73.02", 8), cand("32.73.03.1001", 9), cand("32.73", 7)], new Set());
      if (!choice) throw new Error("no answer");
      const odds = oddsOf(parseAddress("Sukamaju"), choice, 1);
      expect(odds.rivals.map((c) => c.hit.id)).toEqual(["32.73.03.1001"]);
      expect(odds.unexplained).toBe(1); // the hand-made candidates explain no words
      const total = 1 + Math.exp(-1) + Math.exp(2 + 0.75 - 10);
      expect(odds.confidence).toBeCloseTo(1 / total, 12);
      expect(odds.alternatives).toEqual([{ hit: at("32.73.03.1001"), confidence: Math.exp(-1) / total }]);
    });

    it("explain: warnings and what matched which level, finest first, with the words as written", () => {
      const e = evidence("Sukamaju, Kec. Cobloong, Kota Bandung 40132", [at("32.73.02"), at("32.73.03")]);
      const c = candidates(e);
      const frame = frameOf(e, c);
      const choice = rank(scoreCandidates(e, c, frame).values(), e.labelled.ids);
      if (!choice) throw new Error("no answer");
      const odds = oddsOf(e.parsed, choice, frame.wordCount);
      expect(warningsOf(e, choice, odds)).toEqual(["typo_corrected"]);
      expect(matchedOf(e, c, choice).map((m) => [m.level, m.text, m.read, m.via])).toEqual([
        ["kelurahan", "Sukamaju", "sukamaju", "name"],
        ["kelurahan", "40132", "40132", "postal_code"],
        ["kecamatan", "Cobloong", "coblong", "typo"],
        ["kabupaten", "Bandung", "kota bandung", "name"],
      ]);
    });
  });
});
