/**
 * A decree's list as `npm run edition:add` reads it: a `code,name` CSV of all four levels, codes
 * dotted or not, names as the annex writes them (`KAB.`/`KOTA` prefixes, capitals), UTF-8 or
 * Windows-1252. Every problem is collected with its line number; nothing is thrown half-way, so one
 * run lists them all.
 */
import { nameProblem } from "../../src/lib/text.ts";
import { LEVELS, levelOf, toDottedId } from "../../src/wilayah/codes.ts";
import { csvFields, parentOf } from "../seed/history-editions.ts";

export type Problem = { line: number | null; message: string };

/** UTF-8 when the bytes are valid UTF-8, Windows-1252 otherwise (the two encodings annex exports come in). */
export function decodeList(bytes: Uint8Array): { text: string; encoding: "utf-8" | "windows-1252" } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes).replace(/^\uFEFF/, ""), encoding: "utf-8" };
  } catch {
    return { text: new TextDecoder("windows-1252", { fatal: false, ignoreBOM: false }).decode(bytes), encoding: "windows-1252" };
  }
}

/** A kabupaten/kota name's prefix as annexes write it, and the type it names. */
const PREFIXES: [RegExp, string, "kabupaten" | "kota"][] = [
  [/^(KAB\.?|KABUPATEN)\s*ADM(\.|INISTRASI)?\s+/i, "Kabupaten Administrasi", "kabupaten"],
  [/^KOTA\s*ADM(\.|INISTRASI)?\s+/i, "Kota Administrasi", "kota"],
  [/^(KAB\.|KAB\s|KABUPATEN\s)\s*/i, "Kabupaten", "kabupaten"],
  [/^KOTA\s+/i, "Kota", "kota"],
];

/** Kemendagri numbers kota 71 and up within their province, kabupaten below. */
export const kindOfKabupatenCode = (code: string): "kabupaten" | "kota" => (Number(code.slice(3, 5)) >= 71 ? "kota" : "kabupaten");

const ROMAN = /^(I{1,3}|IV|V|VI{1,3}|IX|X{1,3}|XI{1,3}|XIV|XV)$/;

/** `KOTA BANDUNG` -> `Bandung`-style capitals for a name written in capitals; a name in mixed case is kept. */
export function displayCase(name: string): string {
  if (name !== name.toUpperCase()) return name;
  return name.toLowerCase().replace(/[\p{L}\d]+/gu, (w, offset: number, all: string) => {
    const up = w.toUpperCase();
    if (ROMAN.test(up) && (offset === 0 || /\s/.test(all[offset - 1]))) return up;
    // Apostrophes inside a word (Ma'rang) keep the next letter small; after a hyphen or a bracket a word starts.
    if (offset > 0 && all[offset - 1] === "'") return w;
    return up[0] + w.slice(1);
  });
}

export type ListEntry = { code: string; name: string; line: number };

/**
 * The list, each name in the form the API stores (prefix spelled out: `Kabupaten X`, `Kota X`;
 * capitals as a name is written) and every problem found. `keep`: today's names, kept when the
 * annex writes the same name (case, spacing and punctuation aside), so an unchanged region keeps
 * the spelling customers already have.
 */
export function readList(text: string, keep: Map<string, string>): { entries: ListEntry[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? "").trim().toLowerCase().replace(/\s+/g, "");
  if (header !== "code,name") {
    problems.push({ line: 1, message: `the header must be "code,name", got "${lines[0] ?? ""}"` });
    return { entries: [], problems };
  }
  const entries: ListEntry[] = [];
  const seen = new Map<string, number>();
  for (let i = 1; i < lines.length; i++) {
    const line = i + 1;
    if (lines[i].trim() === "") continue;
    let fields: string[];
    try {
      fields = csvFields(lines[i]);
    } catch (e) {
      problems.push({ line, message: e instanceof Error ? e.message : String(e) });
      continue;
    }
    if (fields.length !== 2) {
      problems.push({ line, message: `expected 2 fields (code,name), got ${fields.length}` });
      continue;
    }
    const code = toDottedId(fields[0]);
    if (!code) {
      problems.push({ line, message: `malformed code "${fields[0]}" (2, 4, 6 or 10 digits, dotted or not)` });
      continue;
    }
    const first = seen.get(code);
    if (first) {
      problems.push({ line, message: `duplicate code ${code} (first on line ${first})` });
      continue;
    }
    seen.set(code, line);
    let name = fields[1].normalize("NFC").replace(/\s+/g, " ").trim();
    if (name === "") {
      problems.push({ line, message: `empty name for ${code}` });
      continue;
    }
    const invisible = nameProblem(name);
    if (invisible) {
      problems.push({ line, message: `${code}: the name ${invisible}` });
      continue;
    }
    if (levelOf(code) === "kabupaten") {
      const prefix = PREFIXES.find(([re]) => re.test(name));
      if (!prefix) {
        problems.push({ line, message: `${code} "${name}": a kabupaten/kota name needs its prefix (KAB., KABUPATEN, KOTA, KOTA ADM.)` });
        continue;
      }
      if (prefix[2] !== kindOfKabupatenCode(code)) {
        problems.push({
          line,
          message: `${code} "${name}": the prefix says ${prefix[2]}, the code says ${kindOfKabupatenCode(code)} (kota are numbered 71 and up)`,
        });
        continue;
      }
      name = `${prefix[1]} ${displayCase(name.replace(prefix[0], ""))}`;
    } else {
      name = displayCase(name);
    }
    const today = keep.get(code);
    if (today !== undefined && sameName(today, name)) name = today;
    entries.push({ code, name, line });
  }
  const codes = new Set(entries.map((e) => e.code));
  for (const e of entries) {
    const parent = parentOf(e.code);
    if (parent && !codes.has(parent)) problems.push({ line: e.line, message: `${e.code}: its parent ${parent} is not in the file` });
  }
  return { entries, problems };
}

/** The same name but for case, spacing and punctuation. */
export const sameName = (a: string, b: string) => foldName(a) === foldName(b);
const foldName = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{L}\d]+/gu, "");

export const EDITION_ID = /^\d{4}[a-z]?$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The new edition's id and date against the current one: later, well-formed. */
export function checkEdition(id: string, date: string, current: { id: string; date?: string }, known: string[]): Problem[] {
  const problems: Problem[] = [];
  if (!EDITION_ID.test(id)) problems.push({ line: null, message: `--id "${id}": an edition id is a year with an optional letter (2026, 2026b)` });
  else if (known.includes(id)) problems.push({ line: null, message: `--id ${id}: that edition is already known` });
  else if (id <= current.id) problems.push({ line: null, message: `--id ${id} is not later than the current edition ${current.id}` });
  if (!DATE.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
    problems.push({ line: null, message: `--date "${date}": a date is YYYY-MM-DD` });
  } else {
    const floor = current.date ?? `${current.id.slice(0, 4)}-01-01`;
    if (date < floor) problems.push({ line: null, message: `--date ${date} is older than the current edition ${current.id} (${floor})` });
    if (EDITION_ID.test(id) && date.slice(0, 4) !== id.slice(0, 4))
      problems.push({ line: null, message: `--date ${date} is not in the edition's year ${id.slice(0, 4)}` });
  }
  return problems;
}

export const LEVEL_LABELS = ["provinsi", "kabupaten/kota", "kecamatan", "kelurahan/desa"] as const;

/** Codes per level today that the new list drops, and the levels past `maxShare` (2%). */
export function largeDrops(today: Iterable<string>, next: Set<string>, maxShare = 0.02): { level: string; dropped: number; of: number }[] {
  const of = [0, 0, 0, 0];
  const dropped = [0, 0, 0, 0];
  for (const code of today) {
    const l = LEVELS.indexOf(levelOf(code));
    of[l]++;
    if (!next.has(code)) dropped[l]++;
  }
  return LEVEL_LABELS.flatMap((level, i) => (of[i] && dropped[i] / of[i] > maxShare ? [{ level, dropped: dropped[i], of: of[i] }] : []));
}
