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
 * One CSV line (no line break at the end). A value that a spreadsheet would run as a formula (it
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a `'` in front: the sheet shows
 * the text, never a formula someone typed into an address.
 */
export function csvLine(values: readonly (string | number | null)[]): string {
  return values
    .map((v) => {
      let s = v === null ? "" : String(v);
      if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
      return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
    })
    .join(",");
}
