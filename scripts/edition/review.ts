/**
 * The review report of a new edition: every change against the edition before it, by kind, with
 * successors and the basis of each (the rules the six editions since 2015 go through:
 * scripts/seed/history.ts, docs/history-method.md), and the gaps its new codes open in the other
 * sources (reported, never filled). Called by scripts/edition/add.ts with the history inputs that
 * have the new edition last (nothing of it is written yet) and the seed directory whose sources
 * the gaps are read from.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { LEVELS } from "../../src/wilayah/codes.ts";
import { buildHistory } from "../seed/history.ts";
import { CHANGES, type HistoryInputs, LEVEL_NAMES, type LevelNo, levelOfCode } from "../seed/history-editions.ts";
import type { ChangeEvent } from "../seed/history-transition.ts";
import { buildIslands, parseIslandMoves } from "../seed/region-sources.ts";

export type ReviewCounts = { changes: Record<string, Record<string, number>>; gaps: Record<string, number> };

const firstColumn = (csv: string) =>
  new Set(
    csv
      .split("\n")
      .slice(1)
      .map((l) => l.slice(0, l.indexOf(",")))
      .filter(Boolean),
  );

const cell = (s: string | null) => (s ?? "").replace(/\|/g, "\\|");

function changeTable(events: ChangeEvent[]): string[] {
  const out = ["| level | before | name before | after | name after | basis | confidence |", "|---|---|---|---|---|---|---:|"];
  for (const e of events)
    out.push(
      `| ${LEVEL_NAMES[e.level]} | ${cell(e.codeBefore)} | ${cell(e.nameBefore)} | ${cell(e.codeAfter)} | ${cell(e.nameAfter)} | ${e.basis ?? ""} | ${e.confidence ?? ""} |`,
    );
  return out;
}

/** The review of the last edition of `inputs` against the one before it; the gaps against the sources of `seedDir`. */
export async function review(seedDir: string, inputs: HistoryInputs): Promise<{ markdown: string; counts: ReviewCounts }> {
  const sourceCodes = (file: string) => firstColumn(readFileSync(join(seedDir, "sources", file), "utf8"));
  const boundaryCodes = (level: string) =>
    firstColumn(gunzipSync(readFileSync(join(seedDir, "sources", `wilayah-boundaries-${level}.csv.gz`))).toString("utf8"));
  const { editions, lists } = inputs;
  const h = buildHistory(inputs);
  const currentOrd = editions.length - 1;
  const cur = editions[currentOrd];
  const prev = editions[currentOrd - 1];
  const events = h.events.filter((e) => e.edition === currentOrd);
  const next = lists.get(cur.id) ?? new Map<string, string>();
  const before = lists.get(prev.id) ?? new Map<string, string>();
  const md: string[] = [
    `# Edition ${cur.id}: review`,
    "",
    `${cur.regulation}${cur.date ? `, ${cur.date}` : ""}. Against edition ${prev.id} (${prev.regulation}).`,
    "",
  ];

  md.push("## Codes per level", "", `| level | ${prev.id} | ${cur.id} | left | new |`, "|---|---:|---:|---:|---:|");
  for (const level of [1, 2, 3, 4] as LevelNo[]) {
    const a = [...before.keys()].filter((c) => levelOfCode(c) === level);
    const b = [...next.keys()].filter((c) => levelOfCode(c) === level);
    md.push(`| ${LEVEL_NAMES[level]} | ${a.length} | ${b.length} | ${a.filter((c) => !next.has(c)).length} | ${b.filter((c) => !before.has(c)).length} |`);
  }

  const counts: ReviewCounts = { changes: {}, gaps: {} };
  md.push("", "## Changes", "", `| change | ${[1, 2, 3, 4].map((l) => LEVEL_NAMES[l]).join(" | ")} |`, "|---|---:|---:|---:|---:|");
  for (const change of CHANGES) {
    const per = [1, 2, 3, 4].map((l) => events.filter((e) => e.change === change && e.level === l).length);
    counts.changes[change] = Object.fromEntries(per.map((n, i) => [LEVEL_NAMES[i + 1], n]));
    md.push(`| ${change} | ${per.join(" | ")} |`);
  }
  for (const change of CHANGES) {
    const list = events.filter((e) => e.change === change);
    if (!list.length) continue;
    md.push("", `### ${change} (${list.length})`, "", ...changeTable(list));
  }

  // Gaps: what the other sources do not say about the new list's codes (reported, never invented).
  const fresh = [...next.keys()].filter((c) => !before.has(c));
  const gaps: [string, string[]][] = [];
  const postal = sourceCodes("wilayah-postal-codes.csv");
  const centroids = sourceCodes("wilayah-centroids.csv");
  const population = sourceCodes("wilayah-population.csv");
  const area = sourceCodes("wilayah-area.csv");
  const shapes = Object.fromEntries(LEVELS.map((l) => [l, boundaryCodes(l)]));
  gaps.push(["postal code (new kelurahan/desa)", fresh.filter((c) => levelOfCode(c) === 4 && !postal.has(c))]);
  gaps.push(["coordinates", fresh.filter((c) => !centroids.has(c))]);
  gaps.push(["boundary", fresh.filter((c) => !shapes[LEVEL_NAMES[levelOfCode(c)]].has(c))]);
  gaps.push(["population (provinsi, kabupaten/kota)", fresh.filter((c) => levelOfCode(c) <= 2 && !population.has(c))]);
  gaps.push(["area (provinsi, kabupaten/kota)", fresh.filter((c) => levelOfCode(c) <= 2 && !area.has(c))]);
  // Regions that stay but lost land to a new code: their boundary and figures describe the old territory.
  const reshaped = [
    ...new Set(events.filter((e) => e.codeBefore && e.codeAfter && e.codeBefore !== e.codeAfter && next.has(e.codeBefore)).map((e) => e.codeBefore as string)),
  ];
  gaps.push(["boundary and figures of a region that gave up land (now too large)", reshaped]);
  const islands = await buildIslands(parseIslandMoves(readFileSync(join(seedDir, "sources", "wilayah-2430-island-moves.csv"), "utf8")));
  gaps.push([
    "islands under a kabupaten/kota code that left",
    islands.filter((i) => i.isActive && i.kabupatenId !== null && !next.has(i.kabupatenId)).map((i) => i.id),
  ]);
  md.push("", "## Gaps the new codes open", "", "Nothing below is filled in: each stays empty (or stale) in the API until its source says it.", "");
  for (const [what, codes] of gaps) {
    counts.gaps[what] = codes.length;
    md.push(`- ${what}: ${codes.length}${codes.length ? ` (${codes.slice(0, 20).join(", ")}${codes.length > 20 ? ", ..." : ""})` : ""}`);
  }
  return { markdown: `${md.join("\n")}\n`, counts };
}
