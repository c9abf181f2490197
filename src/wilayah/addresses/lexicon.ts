/**
 * The address parser's lexicon (moved from parse.ts): how text is cut into tokens, which words are
 * markers and what level each says, and how region codes are recognised.
 */
import type { Level } from "../codes.ts";

/**
 * The level word written before a segment, normalised. `kel/desa` and `kab/kota` are the KTP form's
 * labels (either kind). `dusun` (`Dusun`, `Dsn.`) and `kampung` (`Kp.`, `Kampung`, `Dukuh`,
 * `Lingkungan`, `Jorong`) are below a village: the segment is the `dusun` component, and it is a
 * region segment too, because some villages are named so (`Kampung Melayu`, `Dusun Tua`, `Dukuh`).
 */
export type Marker = "kel" | "desa" | "kel/desa" | "kec" | "kab" | "kota" | "kotamadya" | "kab/kota" | "prov" | "kampung" | "dusun";

// ---------------------------------------------------------------- tokens

export type Tok = {
  /** As written. */
  raw: string;
  /** Lowercase, accents and a trailing period removed; "" for separators. */
  w: string;
  start: number;
  end: number;
  /** Ends a segment: `,` `;` new line `|` `(` `)`. */
  sep: boolean;
  /** `/`, `:`, `#` or a dash standing alone: joins labels (`RT/RW`, `Kel/Desa`), is dropped elsewhere. */
  punct: boolean;
};

/** Numbers with decimal marks (`Km 5,5`), words (with inner `'` `-`, one trailing `.` or `'`), separators. */
const TOKEN = /\d+(?:[.,]\d+)+|[\p{L}\p{N}]+(?:['\u2019`-][\p{L}\p{N}]+)*(?:\.|['\u2019](?=[\s,;|)]|$))?|[,;|()\n\r]|[/:#\-\u2013\u2014]/gu;

/** A label glued to its number: `RT003RW002`, `rw02`, `No12A`, `Blok5` (`Km.5`: the `.` split already). */
const GLUED_RT = /^(rt|rw)(\d+)(.*)$/iu;
const GLUED = /^(no|nomor|blok|blk|km|kav)(\d[\p{L}\p{N}-]*)$/iu;

const fold = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/\u2019/g, "'")
    .toLowerCase();

function pushWord(out: Tok[], raw: string, start: number): void {
  const word = (r: string, at: number) => out.push({ raw: r, w: fold(r).replace(/[.']$/, ""), start: at, end: at + r.length, sep: false, punct: false });
  const rt = GLUED_RT.exec(raw);
  const glued = rt ?? GLUED.exec(raw);
  if (!glued) {
    word(raw, start);
    return;
  }
  const k = glued[1].length;
  const n = glued[2].length;
  word(raw.slice(0, k), start);
  word(raw.slice(k, k + n), start + k);
  if (rt && glued[3]) pushWord(out, raw.slice(k + n), start + k + n);
}

export function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const start = m.index;
    if (/^[,;|()\n\r]$/.test(raw)) {
      out.push({ raw, w: "", start, end: start + raw.length, sep: true, punct: false });
      continue;
    }
    if (/^[/:#\-\u2013\u2014]$/.test(raw)) {
      out.push({ raw, w: raw, start, end: start + 1, sep: false, punct: true });
      continue;
    }
    pushWord(out, raw, start);
  }
  return out;
}

// ---------------------------------------------------------------- markers

type Kind = "street" | "house" | "rt" | "rw" | "block" | "complex" | "building" | "dusun" | "region" | "postal" | "country" | "label";

export const WORDS: Record<string, { kind: Kind; marker?: Marker }> = {};
const put = (kind: Kind, words: string[], marker?: Marker) => {
  for (const w of words) WORDS[w] = { kind, ...(marker ? { marker } : {}) };
};
put("street", ["jl", "jln", "jalan", "gg", "gang", "lr", "lrg", "lorong"]);
put("house", ["no", "nomor", "nmr", "kav", "kavling"]);
put("rt", ["rt"]);
put("rw", ["rw"]);
put("block", ["blok", "blk", "block"]);
put("complex", ["perum", "perumahan", "komplek", "kompleks", "komp", "kompl", "cluster", "klaster"]);
put("building", ["gedung", "gd", "gdg", "apartemen", "apartement", "apartment", "apt", "wisma", "menara", "tower", "ruko", "rukan"]);
put("dusun", ["dusun", "dsn"], "dusun");
put("region", ["kampung", "kp", "kmp", "dukuh", "dk", "lingkungan", "lingk", "jorong", "pedukuhan", "padukuhan"], "kampung");
put("region", ["kel", "kelurahan"], "kel");
put("region", ["desa", "ds", "gampong", "nagari", "pekon"], "desa");
put("region", ["kec", "kecamatan", "kcm", "distrik", "kapanewon", "kemantren"], "kec");
put("region", ["kab", "kabupaten"], "kab");
put("region", ["kota"], "kota");
put("region", ["kotamadya", "kodya", "kotmadya"], "kotamadya");
put("region", ["prov", "provinsi", "propinsi", "prop"], "prov");
put("postal", ["kodepos"]);
put("country", ["indonesia"]);
put("label", ["alamat", "domisili"]);

export const LEVEL_OF: Record<Marker, Level | null> = {
  kel: "kelurahan",
  desa: "kelurahan",
  "kel/desa": "kelurahan",
  kec: "kecamatan",
  kab: "kabupaten",
  kota: "kabupaten",
  kotamadya: "kabupaten",
  "kab/kota": "kabupaten",
  prov: "provinsi",
  kampung: null,
  dusun: null,
};

/**
 * Words that start a hamlet or a village in some regions and are part of many names elsewhere
 * (`Ujong Gampong`, `Belakang Gedung`, `Kampung Baru`): inside a segment they are name words.
 */
export const WEAK = new Set(["kampung", "kp", "kmp", "dukuh", "dk", "lingkungan", "lingk", "jorong", "pedukuhan", "padukuhan", "gampong", "nagari", "pekon"]);

/** Words after `Kota`/`Kab.` that say "administrative city/regency" (Jakarta's cities, Kepulauan Seribu). */
export const ADMINISTRATIVE = new Set(["adm", "administrasi"]);

/**
 * A Kemendagri region code as people copy it from a database: dotted `32.73`, `32.73.01`,
 * `32.73.01.1001`, or a village's ten digits `3273011001`. The village part starts with 1
 * (kelurahan) or 2 (desa), which tells ten digits from a phone number (`0812...` has 11+ digits
 * and a leading 0) and from BPS's village codes (`3273010001`). Bare `32` or `327301` are not
 * read: a house number and a NIK's first digits look the same.
 */
const CODE_DOTTED = /^[1-9]\d\.\d{2}(?:\.\d{2}(?:\.[12]\d{3})?)?$/;
const CODE_TEN = /^([1-9]\d)(\d{2})(\d{2})([12]\d{3})$/;
export function regionCode(w: string): string | null {
  if (CODE_DOTTED.test(w)) return w;
  const ten = CODE_TEN.exec(w);
  return ten ? ten.slice(1).join(".") : null;
}
/**
 * A number that may be a BPS (statistics bureau) code: a kecamatan's 7 digits (no Kemendagri code
 * has 7) or a village's 10. Read as BPS only where the crosswalk holds it and, for 10 digits, no
 * edition of Kemendagri's list holds the same digits as a code (the address service decides).
 */
const BPS_CODE = /^[1-9]\d{6}(?:\d{3})?$/;
export const bpsCodeOf = (w: string): string | null => (BPS_CODE.test(w) ? w : null);
/** Codes read from one address: more is a list pasted into one line, not an address. */
export const MAX_CODES = 4;
/** Words that label a code (`Kode Wilayah: 32.73.01.1001`, `kode kemendagri`, `kode BPS`), dropped before it. */
export const CODE_LABELS = new Set(["kode", "kd", "wilayah", "kemendagri", "kemdagri", "bps", "desa", "kelurahan", "kel"]);

export const isNumber = (t: Tok | undefined) => !!t && !t.sep && /^\d/.test(t.w) && /\d/.test(t.w);
export const isPostal = (t: Tok | undefined) => !!t && /^[1-9]\d{4}$/.test(t.w);
/** A house number: digits first (`8`, `12A`, `12-14`), or a letter and digits (`A5`). */
export const isHouseNumber = (t: Tok | undefined) => !!t && !t.sep && !t.punct && /^(\d[\p{L}\p{N}-]*|\p{L}{1,2}-?\d+[\p{L}\p{N}-]*)$/u.test(t.w);
