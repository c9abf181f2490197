/**
 * The address resolver's reads of the search index (tables: migrations/0006_wilayah_grams.sql,
 * 0009_wilayah_search_context.sql, 0012_region_history.sql; docs/address-method.md, "Lookup"). No
 * second name index: a phrase is looked up as a whole term of `wilayah_grams` (`s = phrase ||
 * U+001F AND k = 0`, a point lookup in its primary key; every spelling the index holds is a term:
 * names, aliases, short forms, names of earlier editions), and the combining happens in the isolate.
 *
 * A fixed number of statements per request, whatever the number of addresses: the phrases and the
 * postal codes of the whole batch go to SQLite as JSON arrays (json_each, one bound parameter
 * each), so a batch of 100 is one statement (and a second one only when some address needs the
 * villages of an area). `CROSS JOIN` keeps SQLite reading the JSON list first, one index seek per
 * element (without it, the villages of the areas were read by scanning wilayah_search whole).
 */
import { sql } from "drizzle-orm";
import type { RegionDb } from "../../db/client";
import { LEVELS } from "../codes";
import { type AreaRegionRow, regionsUnderSql } from "../search/queries";
import type { Lookup } from "./evidence";
import type { RegionHit } from "./matching";

type Row = {
  q: string;
  kind: number;
  id: string;
  level: number;
  name: string;
  alt_name: string;
  parent: string | null;
  postal: string | null;
  former: number;
};

const hitOf = (r: Row): RegionHit => ({ id: r.id, level: LEVELS[r.level - 1], name: r.name, altName: r.alt_name, parent: r.parent, postal: r.postal });

/**
 * Every active region one of `phrases` names exactly (with `former`: the phrase is only a name of an
 * earlier edition of that region, wilayah_former), every active village of `postals`, and the
 * active regions of `ids` (the current regions of codes written in the addresses), with what the
 * scoring needs (parents' names, the village's postal code). One statement.
 */
export async function lookupPhrases(
  db: RegionDb,
  phrases: string[],
  postals: string[],
  ids: string[] = [],
): Promise<Pick<Lookup, "byTerm" | "byPostal"> & { byId: Map<string, RegionHit> }> {
  const byTerm: Lookup["byTerm"] = new Map();
  const byPostal: Lookup["byPostal"] = new Map();
  const byId = new Map<string, RegionHit>();
  if (phrases.length === 0 && postals.length === 0 && ids.length === 0) return { byTerm, byPostal, byId };
  const rows = await db.all<Row>(sql`
    SELECT t.value AS q, 0 AS kind, w.id, w.level, w.name, w.alt_name, w.parent, k.postal_code AS postal,
      (f.terms IS NOT NULL AND instr(f.terms, char(31) || t.value || char(31)) > 0) AS former
    FROM json_each(${JSON.stringify(phrases)}) t
    CROSS JOIN wilayah_grams g ON g.s = t.value || char(31) AND g.k = 0 AND g.is_active = 1
    JOIN wilayah_search w ON w.ord = g.r
    LEFT JOIN kelurahan k ON k.id = w.id AND w.level = 4
    LEFT JOIN wilayah_former f ON f.r = g.r
    UNION ALL
    SELECT p.postal, 1, w.id, w.level, w.name, w.alt_name, w.parent, p.postal, 0
    FROM json_each(${JSON.stringify(postals)}) j
    CROSS JOIN wilayah_postal p ON p.postal = j.value
    JOIN wilayah_search w ON w.ord = p.r
    WHERE w.is_active = 1
    UNION ALL
    SELECT i.value, 3, w.id, w.level, w.name, w.alt_name, w.parent, k.postal_code, 0
    FROM json_each(${JSON.stringify(ids)}) i
    CROSS JOIN wilayah_search w ON w.id = i.value
    LEFT JOIN kelurahan k ON k.id = w.id AND w.level = 4
    WHERE w.is_active = 1`);
  for (const r of rows) {
    const hit = hitOf(r);
    if (r.kind === 0) {
      const list = byTerm.get(r.q);
      const entry = { hit, former: r.former === 1 };
      if (list) list.push(entry);
      else byTerm.set(r.q, [entry]);
    } else if (r.kind === 3) {
      byId.set(r.id, hit);
    } else {
      const list = byPostal.get(r.q);
      if (list) list.push(hit);
      else byPostal.set(r.q, [hit]);
    }
  }
  return { byTerm, byPostal, byId };
}

/**
 * The regions of each area a second round names (resolve.ts `expand`: a kabupaten/kota, a kecamatan
 * or a provinsi), by area, with the villages' postal codes (search/queries.ts `regionsUnderSql`
 * says which). One statement.
 */
export async function areaRegions(db: RegionDb, areas: string[]): Promise<Map<string, RegionHit[]>> {
  const out = new Map<string, RegionHit[]>();
  if (areas.length === 0) return out;
  // An area's level from its dotted code: 32 -> 1, 32.73 -> 2, 32.73.02 -> 3.
  const rows = await db.all<AreaRegionRow>(
    regionsUnderSql(
      sql`SELECT value AS ctx, value AS id, length(value) - length(replace(value, '.', '')) + 1 AS level FROM json_each(${JSON.stringify(areas)})`,
      {
        postal: true,
      },
    ),
  );
  for (const r of rows) {
    const hit: RegionHit = { id: r.id, level: LEVELS[r.level - 1], name: r.name, altName: r.alt_name, parent: r.parent, postal: r.postal };
    const list = out.get(r.ctx);
    if (list) list.push(hit);
    else out.set(r.ctx, [hit]);
  }
  return out;
}
