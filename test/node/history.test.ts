/**
 * Region history on the whole seed: every code of every edition (99,133, and the 18 retired codes of
 * the region tables that no edition holds) answers /history through the very service and SQL the API
 * runs (src/wilayah/history/service.ts on a node:sqlite copy of seed/wilayah.sql, through the D1 shim
 * scripts/sqlite-d1.ts), with the editions, names and successors the derivation found
 * (scripts/seed/history.ts), in one statement; /convert answers them all, one statement per 1,000;
 * /changes pages through every change of every edition, reading its own rows only.
 */

import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_DIR } from "../../scripts/lib";
import { buildHistory } from "../../scripts/seed/history";
import { type HistoryInputs, readHistoryInputs } from "../../scripts/seed/history-editions";
import { nameKey } from "../../scripts/seed/history-names";
import type { History } from "../../scripts/seed/history-transition";
import { type StatementRun, sqliteDb } from "../../scripts/sqlite-d1";
import { plainReads, type RegionReads } from "../../src/db/reads";
import { levelOf } from "../../src/wilayah/codes";
import { CHANGES, convert, listChanges, listEditions, regionHistory } from "../../src/wilayah/history/service";
import { getRegion } from "../../src/wilayah/regions/service";
import { seededMemoryDb } from "./seeded-db.ts";

const _root = join(import.meta.dirname, "..", "..");
const TABLES = /^INSERT INTO (provinsi|kabupaten|kecamatan|kelurahan|wilayah_edition|wilayah_history|wilayah_successor|wilayah_change|wilayah_change_run) /;

let db: DatabaseSync;
let runner: RegionReads;
let statements = 0;
let h: History;
let inputs: HistoryInputs;
let editions: HistoryInputs["lists"];
let orphans: string[];

// The files of a lane share its process (vitest.config.ts): the database goes with the file.
afterAll(() => db?.close());

beforeAll(() => {
  // the region tables and the history tables of the committed seed
  db = seededMemoryDb((l) => TABLES.test(l));
  // keyed like a data answer's reads (src/data/run.ts): the editions are read once, not checked per call
  runner = plainReads(
    sqliteDb(db, (_run: StatementRun) => statements++),
    "node-test",
  );
  inputs = readHistoryInputs(SEED_DIR);
  editions = inputs.lists;
  h = buildHistory(inputs);
  orphans = (db.prepare("SELECT id FROM kelurahan WHERE is_active = 0").all() as { id: string }[]).map((r) => r.id).filter((id) => !h.codes.has(id));
}, 180_000); // loads the region and history tables of the whole seed into node:sqlite and derives the history: about 20 s quiet, minutes on a busy machine

describe("GET /{code}/history for every code", () => {
  it("answers every code of every edition with its editions, names and successors, in one statement each", async () => {
    await listEditions(runner); // read once per isolate
    const wrong: string[] = [];
    let answered = 0;
    for (const [code, r] of h.codes) {
      statements = 0;
      const { data } = await regionHistory(runner, code.replaceAll(".", ""));
      const want = inputs.editions.flatMap((e) => (editions.get(e.id)!.has(code) ? [{ edition: e.id, name: editions.get(e.id)!.get(code)! }] : []));
      const wantSuccessors = (h.successors.get(code) ?? []).map((s) => `${s.code} ${s.basis} ${s.confidence}`);
      const ok =
        data.code === code &&
        data.status === (r.current ? "current" : "retired") &&
        // a current code without history row shows the region tables' spelling, which differs for 57 names in case or punctuation
        (r.current
          ? data.editions.length === want.length && data.editions.every((e, i) => e.edition === want[i].edition)
          : JSON.stringify(data.editions) === JSON.stringify(want)) &&
        JSON.stringify(data.successors.map((s) => `${s.id} ${s.basis} ${s.confidence}`)) === JSON.stringify(wantSuccessors) &&
        data.successors.every((s) => s.name !== "") &&
        data.predecessors.length ===
          (h.predecessors.get(code)?.length ?? 0) + (r.current ? orphans.filter((o) => data.predecessors.some((p) => p.code === o)).length : 0) &&
        statements === 1;
      if (!ok) wrong.push(code);
      answered++;
    }
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(answered).toBe(99_133);
  }, 600_000); // 99,133 codes, each answered and compared: the whole list is the point (one code a rename broke is what it finds), about a minute quiet

  it("answers the 18 retired codes of the region tables that no edition holds, with their namesake", async () => {
    expect(orphans).toHaveLength(18);
    for (const code of orphans) {
      const { data } = await regionHistory(runner, code);
      expect(data).toMatchObject({ status: "retired", editions: [] });
      expect(data.successors).toHaveLength(1);
      expect(data.successors[0].basis).toBe("same_name");
      expect((await getRegion(runner, code)).data.replaced_by).toEqual([data.successors[0].id]);
    }
  });

  it("by id: every non-current code answers as last published, with replaced_by", async () => {
    const wrong: string[] = [];
    for (const [code, r] of h.codes) {
      if (r.current) continue;
      const { data } = await getRegion(runner, code);
      // the previous list's retired rows keep their own record (idn-area-data 3.1.2 spells a few names differently)
      const row = db.prepare("SELECT name FROM kelurahan WHERE id = ?").get(code) as { name: string } | undefined;
      const last = row?.name ?? r.names[r.names.length - 1].name;
      if (data.is_active !== 0 || data.name !== last || JSON.stringify(data.replaced_by) !== JSON.stringify(h.successors.get(code)!.map((s) => s.code)))
        wrong.push(code);
    }
    expect(wrong).toEqual([]);
  }, 300_000); // every non-current code of every edition, as above
});

describe("POST /convert over all codes", () => {
  it("converts every code of every edition, 1,000 a call, in one statement a call, the same as /history", async () => {
    const codes = [...h.codes.keys(), ...orphans];
    let calls = 0;
    for (let i = 0; i < codes.length; i += 1000) {
      const chunk = codes.slice(i, i + 1000);
      statements = 0;
      const { data } = await convert(runner.db, chunk);
      calls++;
      expect(statements).toBe(1);
      for (const [j, item] of data.entries()) {
        const code = chunk[j];
        const r = h.codes.get(code);
        if (r?.current) expect(item, code).toMatchObject({ status: "current", current: { id: code }, successors: [] });
        else {
          const want = r ? h.successors.get(code)!.map((s) => s.code) : undefined;
          expect(item.status, code).toBe("retired");
          if (want)
            expect(
              item.successors.map((s) => s.id),
              code,
            ).toEqual(want);
          expect(item.current?.id ?? null, code).toBe(item.successors.length === 1 ? item.successors[0].id : null);
        }
      }
    }
    expect(calls).toBe(100);
  }, 300_000); // every code of every edition again, 1,000 a call

  it("a village of 91.01 in edition 2022 resolves to the village of the same name under 93.01", async () => {
    const villages = [...editions.get("2022")!].filter(([c]) => c.startsWith("91.01.") && levelOf(c) === "kelurahan");
    const { data } = await convert(
      runner.db,
      villages.map(([c]) => c),
    );
    let sameName = 0;
    for (const [i, item] of data.entries()) {
      expect(item.current?.id.startsWith("93.01."), villages[i][0]).toBe(true);
      // the same name beyond case, spacing and Papua's `Desa Adat` prefix (scripts/seed/history.ts nameKey); the others by a close spelling
      if (nameKey(4, item.current?.name ?? "") === nameKey(4, villages[i][1])) sameName++;
      else expect(item.successors[0].basis, villages[i][0]).toMatch(/similar_name|same_name/);
    }
    expect(villages).toHaveLength(190);
    // 182 had a namesake under 93.01 in 2022b; Sabudom (91.01.21.2001) is spelt Sabudon since 2025
    expect(sameName).toBe(181);
    expect(data.find((d) => d.code === "91.01.01.2001")).toMatchObject({
      current: { id: "93.01.01.2001", name: "Nasem" },
      successors: [{ basis: "same_name" }],
    });
  });

  it("unknown and malformed codes are unknown, in place", async () => {
    const { data } = await convert(runner.db, ["32.73.99", "abc", "9271", "3273"]);
    expect(data.map((d) => [d.code, d.status, d.current?.id ?? null])).toEqual([
      ["32.73.99", "unknown", null],
      ["abc", "unknown", null],
      ["9271", "retired", "96.71"],
      ["3273", "current", "32.73"],
    ]);
  });
});

describe("GET /changes over every change", () => {
  it("pages through the events of edition ranges and filters exactly as derived, each page one statement reading its rows by rowid", async () => {
    const ids = inputs.editions.map((e) => e.id);
    const levels = ["provinsi", "kabupaten", "kecamatan", "kelurahan"] as const;
    const key = (e: { edition: number; change: string; codeBefore: string | null; codeAfter: string | null }) =>
      `${ids[e.edition]} ${e.change} ${e.codeBefore} ${e.codeAfter}`;
    await listEditions(runner); // the editions and runs of changes are read once per isolate
    let pages = 0;
    for (const [from, to, level, change] of [
      ["2015", "2025", undefined, undefined],
      ["2022", "2022b", "kecamatan", undefined],
      ["2015", "2025", "kelurahan", "recoded"],
      ["2017", "2022b", undefined, "renamed"],
      ["2022b", "2025", "kabupaten", "recoded"],
    ] as const) {
      const want = h.events
        .filter(
          (e) =>
            e.edition > ids.indexOf(from) &&
            e.edition <= ids.indexOf(to) &&
            (!level || e.level === levels.indexOf(level) + 1) &&
            (!change || e.change === change),
        )
        .map(key);
      const got: string[] = [];
      for (let page = 1; ; page++) {
        const plans: string[] = [];
        const planned = plainReads(
          sqliteDb(db, (run) => {
            plans.push((db.prepare(`EXPLAIN QUERY PLAN ${run.sql}`).all(...run.params) as { detail: string }[]).map((x) => x.detail).join("; "));
          }),
          "node-test",
        );
        const r = await listChanges(planned, { from, to, level, change, page, per_page: 100 });
        pages++;
        expect(r.meta.total).toBe(want.length);
        // one statement reading the page's rows by rowid: never a scan of the table, never a sort
        expect(plans.length).toBeLessThanOrEqual(1);
        for (const plan of plans) expect(plan).toMatch(/^(?!.*SCAN wilayah_change)(?!.*TEMP B-TREE).*INTEGER PRIMARY KEY \(rowid=\?\)/);
        got.push(...r.data.map((c) => `${c.edition} ${c.change} ${c.code_before} ${c.code_after}`));
        if (page >= r.meta.total_pages) break;
      }
      expect(got).toEqual(want);
      expect(CHANGES).toEqual(expect.arrayContaining([...new Set(h.events.map((e) => e.change))]));
    }
    expect(pages).toBeGreaterThan(100);
  }, 300_000); // every change of every edition, paged
});
