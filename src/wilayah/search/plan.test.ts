import { describe, expect, it } from "vitest";
import { SEED_DIR } from "../../../scripts/lib";
import { loadAliases, loadPostalCodes } from "../../../scripts/seed/search-index";
import { maxEdits } from "../edits";
import { minSharedTrigrams, planQuery, wordTrigrams } from "./plan";

describe("query plan", () => {
  it("reads administrative words as hints, kota/kabupaten as the name's prefix", () => {
    expect(planQuery("kab. garut").literal).toEqual({ own: "kabupaten garut", context: [] });
    expect(planQuery("kec coblong").literal).toEqual({ own: "coblong", hint: "kecamatan", context: [] });
    expect(planQuery("bandung kota").literal.own).toBe("kota bandung");
    expect(planQuery("ds sukamaju").literal.hint).toBe("kelurahan");
    expect(planQuery("prov jawa barat").literal).toMatchObject({ own: "jawa barat", hint: "provinsi" });
    expect(planQuery("kota").literal.own).toBe("kota"); // nothing else: the word itself
    expect(planQuery("50 kota").typed?.own).toBe("50 kota");
    expect(planQuery("kec a").literal).toEqual({ own: "kec a", context: [] }); // too little name left: as typed
    expect(planQuery("a,").literal.own).toBe("a,");
  });

  it("reads context: a run of words inside one comma part as the name, every other word as a parent", () => {
    const p = planQuery("coblong, kota bandung");
    expect(p.contexts).toEqual([
      { own: "coblong", context: [{ text: "kota bandung" }] },
      { own: "kota bandung", context: [{ text: "coblong" }] },
    ]);
    expect(planQuery("kuta badung bali").contexts.map((c) => c.own)).toEqual(["kuta", "kuta badung", "badung bali", "bali"]);
    expect(planQuery("kec coblong, bandung").contexts[0]).toEqual({ own: "coblong", hint: "kecamatan", context: [{ text: "bandung" }] });
    expect(planQuery("bandung OR").contexts).toEqual([]); // words under 3 characters are no context
  });

  it("reads codes with or without dots and 5-digit postal codes", () => {
    expect(planQuery("3273").code).toBe("32.73");
    expect(planQuery("32.73.09.1001").code).toBe("32.73.09.1001");
    expect(planQuery("3273091001").code).toBe("32.73.09.1001");
    expect(planQuery("40135").postal).toBe("40135");
    expect(planQuery("40135").code).toBeUndefined();
    expect(planQuery("327").code).toBeUndefined();
  });
});

describe("typo candidates", () => {
  it("candidates within the distance always share the trigrams the filter asks for", () => {
    const words = ["bandung", "cirebon", "yogyakarta", "bali", "sukamaju", "pangkalan"];
    const edits = (w: string) => {
      const out: string[] = [];
      for (let i = 0; i <= w.length; i++) {
        out.push(`${w.slice(0, i)}x${w.slice(i)}`); // insertion
        if (i < w.length) out.push(w.slice(0, i) + w.slice(i + 1), `${w.slice(0, i)}x${w.slice(i + 1)}`); // deletion, substitution
        if (i + 1 < w.length) out.push(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2)); // transposition
      }
      return out;
    };
    for (const w of words) {
      for (const typo of edits(w)) {
        if (maxEdits(typo.length) === 0) continue;
        const shared = wordTrigrams(typo).filter((g) => wordTrigrams(w).includes(g)).length;
        expect(shared, `${typo} -> ${w}`).toBeGreaterThanOrEqual(minSharedTrigrams(typo));
      }
    }
  });
});

describe("seed side", () => {
  it("every alias names a known region, a kind and a source", () => {
    const aliases = loadAliases(SEED_DIR, new Set(["32"]), "id,alias,kind,source\n32,Jabar,short,common use\n");
    expect(aliases).toEqual([{ id: "32", alias: "Jabar", kind: "short", source: "common use" }]);
    expect(() => loadAliases(SEED_DIR, new Set(["32"]), "id,alias,kind,source\n99,X,short,s\n")).toThrow(/line 2.*unknown region/);
    expect(() => loadAliases(SEED_DIR, new Set(["32"]), "id,alias,kind,source\n32,X,nickname,s\n")).toThrow(/kind/);
    expect(() => loadAliases(SEED_DIR, new Set(["32"]), "id,alias,kind,source\n32,X,short,\n")).toThrow(/no source/);
  });

  it("postal codes: one per village, 5 digits", () => {
    const postal = loadPostalCodes(SEED_DIR);
    expect(postal.size).toBe(83_762);
    expect(postal.get("32.73.02.1004")).toBe("40135");
  });
});
