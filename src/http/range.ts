/**
 * The `Range` header of a GET (RFC 9110, 14.2): one range of bytes, `bytes=first-last`,
 * `bytes=first-` or `bytes=-suffix`, resolved against the resource's size. Several ranges in one
 * request are answered as the whole resource (a server may ignore Range), as GDAL and browsers only
 * ever ask for one. A range that starts past the end is RANGE_NOT_SATISFIABLE (416).
 */
import { ApiError } from "../lib/errors";

export type ByteRange = { offset: number; length: number };

/** One range of bytes: `first-last`, `first-` or `-suffix`. */
const ONE_RANGE = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i;

/** The one range asked for, or null for the whole resource (no header, several ranges, a unit other than bytes). */
export function byteRange(header: string | undefined, size: number): ByteRange | null {
  if (!header) return null;
  const m = ONE_RANGE.exec(header);
  if (!m || (m[1] === "" && m[2] === "")) return null;
  const unsatisfiable = () =>
    new ApiError("RANGE_NOT_SATISFIABLE", `The range ${header.slice(0, 60)} lies outside the file (${size} bytes).`, {
      headers: { "content-range": `bytes */${size}` },
    });
  if (m[1] === "") {
    const suffix = Math.min(Number(m[2]), size);
    if (suffix === 0) throw unsatisfiable();
    return { offset: size - suffix, length: suffix };
  }
  const first = Number(m[1]);
  if (first >= size) throw unsatisfiable();
  const last = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (last < first) return null; // syntactically invalid: ignored, the whole resource (RFC 9110)
  return { offset: first, length: last - first + 1 };
}

/**
 * The most bytes a `Range` header can be answered with, known without the resource's size (the gate
 * meters a range before the file is looked up): `first-last` and `-suffix` say it; no header, an
 * open `first-`, several ranges or an invalid one may be the whole resource (null).
 */
export function rangeLengthAtMost(header: string | undefined): number | null {
  if (!header) return null;
  const m = ONE_RANGE.exec(header);
  if (!m || m[2] === "") return null;
  if (m[1] === "") return Number(m[2]);
  const first = Number(m[1]);
  const last = Number(m[2]);
  return last < first ? null : last - first + 1;
}
