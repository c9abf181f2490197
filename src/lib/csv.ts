/**
 * CSV of one column in, CSV out (RFC 4180: fields with a comma, quote or line break are quoted, a
 * quote inside doubled). Pure. For the portal's address page: people export a column of addresses
 * from a spreadsheet or a CRM, and download the answers as a sheet.
 */

/**
 * The values of a one-column CSV, in order, empty lines skipped. A quoted field may hold commas and
 * line breaks; an unquoted line is one value whole, commas and all (an address column exported
 * without quotes is still one address per line). Only the first field of a quoted line is read.
 */
export function readCsvColumn(text: string): string[] {
  const out: string[] = [];
  const s = text.replace(/^\uFEFF/, "");
  let i = 0;
  while (i < s.length) {
    let value: string;
    if (s[i] === '"') {
      let v = "";
      i++;
      while (i < s.length) {
        if (s[i] === '"') {
          if (s[i + 1] === '"') {
            v += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += s[i++];
      }
      // Anything after the closing quote up to the line's end (other columns) is not read.
      while (i < s.length && s[i] !== "\n" && s[i] !== "\r") i++;
      value = v;
    } else {
      const end = s.slice(i).search(/\r\n|\n|\r/);
      value = end < 0 ? s.slice(i) : s.slice(i, i + end);
      i = end < 0 ? s.length : i + end;
    }
    if (s[i] === "\r" && s[i + 1] === "\n") i += 2;
    else if (s[i] === "\r" || s[i] === "\n") i++;
    const trimmed = value.trim();
    if (trimmed) out.push(trimmed);
  }
  return out;
}

/**
 * A value a spreadsheet may run as a formula: its first character other than spaces (any Unicode
 * space, zero-width ones too: sheets skip them) is `=`, `+`, `-` or `@`, or their fullwidth and small
 * forms (`＝`, `＋`, `－`, `＠`, `﹦`, `﹢`, `﹣`: some sheets read them as the ASCII ones); or it starts
 * with a tab, carriage return or line feed.
 */
const FORMULA = /^(?:[\s\u200b\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63]|[\t\r\n])/u;

/**
 * One CSV line (no line break at the end). A value that a spreadsheet would run as a formula
 * (FORMULA) gets a `'` in front: the sheet shows the text, never a formula someone typed into an address.
 */
export function csvLine(values: readonly (string | number | null)[]): string {
  return values
    .map((v) => {
      let s = v === null ? "" : String(v);
      if (typeof v === "string" && FORMULA.test(s)) s = `'${s}`;
      return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
    })
    .join(",");
}

/**
 * The rows of a CSV (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks).
 * `crlf`: lines end with CRLF only, as our exports and mapping files write them (a lone LF or CR is
 * a character of its field, and a last line without CRLF is an error); otherwise any of CRLF, LF or
 * CR ends a line and the last may lack one (files of other sources).
 */
export function parseCsvRows(text: string, { crlf }: { crlf: boolean }): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      endRow();
      i++;
    } else if (!crlf && (c === "\n" || c === "\r")) endRow();
    else field += c;
  }
  if (field || row.length) {
    if (crlf) throw new Error("the CSV does not end with CRLF");
    endRow();
  }
  return rows;
}
