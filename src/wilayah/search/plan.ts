/**
 * How a search query is read (docs/api.md, "Search"). Pure functions, shared by the Worker and the
 * seed build (scripts import this file directly, so it imports only ../codes and ../edits).
 *
 * A normalised query is cut into words at spaces and commas. Administrative words are level hints,
 * not name text: `kabupaten`/`kab`/`kab.` and `kota` stay attached to the next word as the name's
 * own prefix (`kab garut` reads as `kabupaten garut`, which is how regencies are named, so `kota` and
 * `kabupaten` keep telling Kota Bandung from Kabupaten Bandung); `kecamatan`/`kec`, `kelurahan`/
 * `kel`, `desa`/`ds`, `provinsi`/`prov` mark the level of the next word (or of the previous one when
 * they come last). The resulting units are read in every way that covers them all:
 * - literal: all units together are the region's own name (the reading of a single word);
 * - context: a run of consecutive units at the start or the end of one comma-separated part is the
 *   region's own name, and every other unit matches the start of a word in the names of one of its
 *   ancestors.
 */
import { type Level, toDottedId } from "../codes.ts";
import { maxEdits } from "../edits.ts";

/** A word of a query with the hint that applies to it. */
export type Unit = {
  /** The name word as typed (normalised, surrounding punctuation removed). */
  word: string;
  /** `kota` / `kabupaten`: part of the name as regencies are named. */
  prefix?: "kota" | "kabupaten";
  /** A level hint from kecamatan/kelurahan/desa/provinsi (and kota/kabupaten: kabupaten). */
  hint?: Level;
  /** Which comma-separated part of the query the unit is in. */
  part: number;
};

export const unitText = (u: Unit) => (u.prefix ? `${u.prefix} ${u.word}` : u.word);

const ADMIN_WORDS: Record<string, { hint: Level; prefix?: Unit["prefix"] }> = {};
for (const w of ["kabupaten", "kab", "kab."]) ADMIN_WORDS[w] = { hint: "kabupaten", prefix: "kabupaten" };
ADMIN_WORDS.kota = { hint: "kabupaten", prefix: "kota" };
for (const w of ["kecamatan", "kec", "kec."]) ADMIN_WORDS[w] = { hint: "kecamatan" };
for (const w of ["kelurahan", "kel", "kel.", "desa", "ds", "ds."]) ADMIN_WORDS[w] = { hint: "kelurahan" };
for (const w of ["provinsi", "propinsi", "prov", "prov."]) ADMIN_WORDS[w] = { hint: "provinsi" };

/** Punctuation that surrounds words in typed text (`(bandung)`, `kuta;`), never part of a place's word. */
const EDGE_PUNCTUATION = /^[.,;:()"'!?]+|[.,;:()"'!?]+$/g;

export type Reading = {
  /** Units of the region's own name, as one phrase matched like a name. */
  own: string;
  /** The level hint on the own-name units, if any. */
  hint?: Level;
  /** Each: a phrase that must start a word of an ancestor's names, at `level` when hinted. */
  context: { text: string; level?: Level }[];
};

export type QueryPlan = {
  /** A Kemendagri code (dots optional): that region first. */
  code?: string;
  /** A 5-digit postal code: its villages. */
  postal?: string;
  /** A BPS code (4, 7 or 10 digits, separators optional), digits only: the current region it lies in. */
  bps?: string;
  units: Unit[];
  /** The literal reading (always present): the whole query, or its units when hints or commas were read. */
  literal: Reading;
  /** Context readings, only when the query has 2 to 5 units of 3 or more characters. */
  contexts: Reading[];
  /** When hints or commas were read: the query as typed, also matched as a name (`50 kota`, `kota baru`). */
  typed?: Reading;
};

/** Words of a normalised name or query as the index cuts them: at every ASCII character other than a-z 0-9. */
export function nameWords(text: string): string[] {
  return text.split(/[^0-9a-z\u0080-\uffff]+/).filter((w) => w.length >= 2);
}

const MAX_CONTEXT_UNITS = 5;
const MIN_CONTEXT_UNIT = 3;

export function planQuery(q: string): QueryPlan {
  const code = /^\d{2}(\.?\d{2}(\.?\d{2}(\.?\d{4})?)?)?$/.test(q) ? (toDottedId(q) ?? toDottedId(q.replaceAll(".", "")) ?? undefined) : undefined;
  const postal = /^\d{5}$/.test(q) ? q : undefined;
  // A 4-digit BPS code of a kabupaten is mostly its Kemendagri code undotted too: both are read, one row each region.
  const digits = /^\d[\d. -]*$/.test(q) ? q.replace(/[. -]/g, "") : "";
  const bps = /^(\d{4}|\d{7}|\d{10})$/.test(digits) ? digits : undefined;

  // Words and parts (commas), admin words set aside as hints.
  const units: Unit[] = [];
  const parts = q.split(",");
  let sawAdmin = false;
  parts.forEach((part, p) => {
    const tokens = part.split(" ").filter(Boolean);
    let pending: (typeof ADMIN_WORDS)[string] | undefined;
    let last: Unit | undefined;
    for (const token of tokens) {
      const admin = ADMIN_WORDS[token] ?? ADMIN_WORDS[token.replace(EDGE_PUNCTUATION, "")];
      if (admin) {
        sawAdmin = true;
        pending = admin;
        continue;
      }
      const word = token.replace(EDGE_PUNCTUATION, "");
      if (!word) continue;
      last = { word, part: p, ...(pending ? { hint: pending.hint, ...(pending.prefix ? { prefix: pending.prefix } : {}) } : {}) };
      units.push(last);
      pending = undefined;
    }
    // A trailing admin word (`bandung kota`) applies to the word before it.
    if (pending && last && !last.hint) {
      last.hint = pending.hint;
      if (pending.prefix) last.prefix = pending.prefix;
    }
  });

  const plain = !sawAdmin && parts.length === 1;
  // Hints or commas leaving under 2 characters of name (`kec a`, `a,`): the query is only read as typed.
  if (units.length === 0 || plain || [...units.map(unitText).join(" ")].length < 2) {
    // No hints, no commas: the query is matched as typed (as before context reading existed).
    const contexts = units.length >= 2 ? contextReadings(units) : [];
    return { code, postal, bps, units, literal: { own: q, context: [] }, contexts };
  }
  const literal: Reading = { own: units.map(unitText).join(" "), hint: ownHint(units), context: [] };
  const typed = q.replaceAll(",", " ").replace(/ +/g, " ").trim();
  return { code, postal, bps, units, literal, contexts: contextReadings(units), ...(typed !== literal.own ? { typed: { own: typed, context: [] } } : {}) };
}

/** The hint of a run of own-name units: a level hint that is not already a name prefix. */
function ownHint(units: Unit[]): Level | undefined {
  return units.find((u) => u.hint && !u.prefix)?.hint;
}

function contextReadings(units: Unit[]): Reading[] {
  if (units.length < 2 || units.length > MAX_CONTEXT_UNITS) return [];
  const out: Reading[] = [];
  for (let i = 0; i < units.length; i++) {
    for (let j = i + 1; j <= units.length; j++) {
      if (i === 0 && j === units.length) continue; // the literal reading
      const own = units.slice(i, j);
      if (own.some((u) => u.part !== own[0].part)) continue;
      // The name comes first or last in its part (`coblong bandung`, `bandung coblong`), not between parents.
      const partStart = i === 0 || units[i - 1].part !== own[0].part;
      const partEnd = j === units.length || units[j].part !== own[0].part;
      if (!partStart && !partEnd) continue;
      const rest = [...units.slice(0, i), ...units.slice(j)];
      const ownText = own.map(unitText).join(" ");
      if (ownText.length < MIN_CONTEXT_UNIT || rest.some((u) => u.word.length < MIN_CONTEXT_UNIT)) continue;
      out.push({
        own: ownText,
        hint: ownHint(own),
        context: rest.map((u) => ({ text: unitText(u), ...(u.hint && !u.prefix ? { level: u.hint } : {}) })),
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------- typos

/** Words of a plan that may be typos: letters only, 4 characters or more. */
export function typoCandidates(plan: QueryPlan): string[] {
  return [...new Set(plan.units.map((u) => u.word).filter((w) => /^[a-z]{4,}$/.test(w)))];
}

/** Padded trigrams (`##w##`), as the typo index (src/wilayah/search/vocabulary.ts) counts them. */
export function wordTrigrams(w: string): string[] {
  const p = `##${w}##`;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= p.length; i++) out.add(p.slice(i, i + 3));
  return [...out];
}

/**
 * Candidates of a word within k edits share at least this many of its distinct padded trigrams:
 * one edit changes at most 4 of them (a transposition; a substitution 3, an insertion 3, a deletion 2).
 */
export function minSharedTrigrams(w: string): number {
  return Math.max(1, wordTrigrams(w).length - 4 * maxEdits(w.length));
}
