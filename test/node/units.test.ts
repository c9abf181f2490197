/** Unit tests of the pure modules: codes, search normalisation, month arithmetic, leases, query typing, portable schemas. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { addMonth, addMonths } from "../../src/billing/months";
import { hex, sha256Hex } from "../../src/lib/crypto";
import { typedQuery } from "../../src/http/query";
import { portableSchema } from "../../src/mcp/portable-schema";
import { HeldLease } from "../../src/account/leases";
import { levelOf, toDottedId, undotted } from "../../src/wilayah/codes";
import { normalizeSearchText, TERM_SEPARATOR } from "../../src/wilayah/normalize";

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

describe("wilayah/normalize", () => {
  it("folds case, accents, typographic apostrophes and white space", () => {
    expect(normalizeSearchText("  Bandung   WETAN ")).toBe("bandung wetan");
    expect(normalizeSearchText("Sélatan")).toBe("selatan");
    expect(normalizeSearchText("Ma\u2019rang")).toBe("ma'rang");
  });

  it("keeps operators literally and drops control characters (the term separator can never be queried)", () => {
    expect(normalizeSearchText('a%b_c*"d"')).toBe('a%b_c*"d"');
    expect(normalizeSearchText(`x${TERM_SEPARATOR}y\u0000`)).toBe("xy");
  });
});

describe("billing/months", () => {
  const t = (s: string) => Date.parse(s);
  it("adds calendar months, clamping to the last day of shorter months", () => {
    expect(new Date(addMonth(t("2026-01-15T10:00:00Z"))).toISOString()).toBe("2026-02-15T10:00:00.000Z");
    expect(new Date(addMonth(t("2026-01-31T10:00:00Z"))).toISOString()).toBe("2026-02-28T10:00:00.000Z");
    expect(new Date(addMonth(t("2028-01-31T00:00:00Z"))).toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(new Date(addMonth(t("2026-12-31T23:59:59Z"))).toISOString()).toBe("2027-01-31T23:59:59.000Z");
  });

  it("several months count from the start day, not month by month (Jan 31 + 2 = Mar 31)", () => {
    expect(new Date(addMonths(t("2026-01-31T00:00:00Z"), 2)).toISOString()).toBe("2026-03-31T00:00:00.000Z");
    expect(new Date(addMonths(t("2026-11-22T00:00:00Z"), 36)).toISOString()).toBe("2029-11-22T00:00:00.000Z");
  });
});

describe("usage/leases HeldLease", () => {
  const lease = (calls: number) => new HeldLease("user_1", { id: "l1", calls, ms: 1000 }, 1_000);

  it("admits up to its calls within its time, per key, endpoint and day", async () => {
    const l = lease(2);
    expect(l.usable(1_500)).toBe(true);
    l.take("k1", "/a", 1_100);
    expect(l.exhausted).toBe(false);
    l.take("k2", "/a", 1_200);
    expect(l.exhausted).toBe(true);
    expect(l.usable(1_300)).toBe(false);
    expect(lease(5).usable(2_000)).toBe(false); // time is over
    let sent: unknown;
    await l.settle(async (counts) => void (sent = counts));
    expect(sent).toEqual([
      { key_id: "k1", endpoint: "/a", day: "1970-01-01", count: 1, last_at: 1_100 },
      { key_id: "k2", endpoint: "/a", day: "1970-01-01", count: 1, last_at: 1_200 },
    ]);
  });

  it("a call given back before settling is not reported; after settling it cannot be given back here", async () => {
    const l = lease(3);
    const back = l.take("k1", "/a", 1_100);
    expect(back()).toBe(true);
    const late = l.take("k1", "/a", 1_100);
    let sends = 0;
    const first = l.settle(async (counts) => {
      sends++;
      expect(counts).toEqual([{ key_id: "k1", endpoint: "/a", day: "1970-01-01", count: 1, last_at: 1_100 }]);
    });
    expect(l.settle(async () => void sends++)).toBe(first); // settles once
    await first;
    expect(sends).toBe(1);
    expect(late()).toBe(false);
    expect(l.usable(1_200)).toBe(false);
  });
});

describe("lib/query typedQuery", () => {
  const schema = z.strictObject({ page: z.int().positive().default(1), q: z.string().optional() });

  it("turns plain decimal digits into integers for integer fields only", () => {
    expect(typedQuery(schema, { page: "3", q: "12" })).toEqual({ page: 3, q: "12" });
  });

  it("leaves every other spelling of a number as text, so validation refuses it", () => {
    for (const v of ["0x10", "1e3", "+3", " 2 ", "2.0", "-1", ""]) {
      expect(typedQuery(schema, { page: v }).page, v).toBe(v);
      expect(schema.safeParse(typedQuery(schema, { page: v })).success, v).toBe(false);
    }
  });

  it("refuses a parameter given twice, naming it", () => {
    expect(() => typedQuery(schema, { q: ["a", "b"] })).toThrow(/"q" is given 2 times/);
  });
});

describe("mcp/portable-schema", () => {
  it("writes nullable types as anyOf of single types, at any depth, and leaves the rest", () => {
    const json = z.toJSONSchema(z.object({ a: z.number().nullable(), b: z.object({ c: z.string().nullable() }), d: z.array(z.string()) }));
    const out = portableSchema(json) as any;
    expect(out.properties.a).toEqual({ anyOf: [{ type: "number" }, { type: "null" }] });
    expect(out.properties.b.properties.c).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(out.properties.d).toEqual({ type: "array", items: { type: "string" } });
    expect(JSON.stringify(out)).not.toMatch(/"type":\[/);
  });
});

describe("lib/crypto", () => {
  it("hex: two lower-case digits per byte", async () => {
    expect(hex(new Uint8Array([0, 1, 15, 16, 171, 255]))).toBe("00010f10abff");
    expect(hex(new Uint8Array())).toBe("");
    // The SHA-256 test vector of "abc" (FIPS 180-2).
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
