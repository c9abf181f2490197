/**
 * A job's input file, read as a stream of bytes: CSV with a header (RFC 4180: quoted fields may hold
 * commas, quotes and line breaks) or JSON Lines. Pure. The upload is scanned once as it streams to
 * R2 (`InputScanner`: validates, counts rows, cuts chunks as byte ranges of the stored file, holds
 * at most one record in memory); a consumer later reads one chunk's range (`readChunk`).
 *
 * Byte ranges, not re-encoded copies: the file is stored as uploaded, and a chunk is read with one
 * ranged R2 get. CSV's structural characters are ASCII, so scanning UTF-8 bytes is exact.
 */
import { ApiError } from "../lib/errors";
import { nextTurn } from "../lib/time";

export type InputFormat = "csv" | "jsonl";

export const INPUT_LIMITS = {
  maxRows: 1_000_000,
  maxBytes: 200 * 1024 * 1024,
  /** The characters of one value (the named column): what the single endpoints accept too. */
  maxValueChars: 500,
  /** One record whole (all its columns): past it a quote was surely left open. */
  maxRecordBytes: 64 * 1024,
  /** A chunk ends after this many rows, */
  chunkRows: 1_000,
  /**
   * or once its records reach this many bytes (so a chunk is at most this plus one record): rows
   * near the record limit would otherwise make a chunk of 1,000 rows 64 MB, more than a consumer's
   * isolate (128 MB) can parse and answer. docs/performance.md, "Bulk jobs: the worst chunk".
   */
  chunkBytes: 2 * 1024 * 1024,
};
export type InputLimits = typeof INPUT_LIMITS;

/** Rows `firstRow`..`firstRow + rows - 1` (1-based, header not counted): bytes `offset`..`offset + length - 1` of the file. */
export type ChunkRange = { index: number; firstRow: number; rows: number; offset: number; length: number; line: number };

export type Scan = {
  /** CSV: the header's names; JSON Lines: null. */
  header: string[] | null;
  rows: number;
  bytes: number;
  chunks: ChunkRange[];
};

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

const bad = (line: number, message: string) => new ApiError("VALIDATION_ERROR", `Line ${line}: ${message}`, { details: [{ path: `line ${line}`, message }] });

/**
 * CSV records from bytes pushed in pieces. For each record: its fields as strings (only the field at
 * `keep` decoded when given: the scan needs one column), the byte offset where it starts and the line
 * it starts on. Blank lines are not records. A record's bytes end where the next one starts.
 */
class CsvRecords {
  #fields: string[] = [];
  #field: number[] = [];
  #inQuotes = false;
  #quoteSeen = false; // a quote inside a quoted field: the next byte says whether it was doubled
  #afterCr = false;
  #recordStart = -1;
  #recordLine = 1;
  #recordBytes = 0;
  #line = 1;
  #pos: number;
  readonly #decoder = new TextDecoder();

  constructor(
    private readonly emit: (fields: string[], start: number, line: number) => void,
    private readonly keep?: number,
    private readonly maxRecordBytes = INPUT_LIMITS.maxRecordBytes,
    /** The offset of the first byte pushed, in the whole file, and its line. */
    startAt = 0,
    startLine = 1,
  ) {
    this.#pos = startAt;
    this.#line = startLine;
  }

  push(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++, this.#pos++) this.#read(bytes[i]);
  }

  /** Bytes that are not read but count in offsets (a byte order mark). */
  skip(n: number): void {
    this.#pos += n;
  }

  #read(b: number): void {
    if (this.#afterCr) {
      this.#afterCr = false;
      if (b === LF) return; // CR LF: one line break
    }
    if (this.#recordStart < 0) {
      if (b === LF || b === CR) {
        this.#lineBreak(b); // a blank line
        return;
      }
      this.#recordStart = this.#pos;
      this.#recordLine = this.#line;
      this.#recordBytes = 0;
    }
    if (++this.#recordBytes > this.maxRecordBytes) {
      throw bad(this.#recordLine, `a record longer than ${this.maxRecordBytes.toLocaleString("en")} bytes (is a quote left open?).`);
    }
    if (this.#inQuotes) {
      if (!this.#quoteSeen) {
        if (b === QUOTE) this.#quoteSeen = true;
        else {
          if (b === LF) this.#line++;
          this.#byte(b);
        }
        return;
      }
      this.#quoteSeen = false;
      if (b === QUOTE) {
        this.#byte(b); // a doubled quote: one quote in the value
        return;
      }
      this.#inQuotes = false; // that quote closed the field: b is read as outside quotes
    }
    if (b === QUOTE && this.#field.length === 0) this.#inQuotes = true;
    else if (b === COMMA) this.#endField();
    else if (b === LF || b === CR) {
      this.#endRecord();
      this.#lineBreak(b);
    } else this.#byte(b);
  }

  #lineBreak(b: number) {
    if (b === LF) this.#line++;
    else {
      this.#line++;
      this.#afterCr = true;
    }
  }

  /** The input is over: a last record without a line break is emitted. Throws on an open quote. */
  end(): void {
    if (this.#inQuotes && !this.#quoteSeen) throw bad(this.#recordLine, "a quoted field is never closed.");
    if (this.#recordStart >= 0) this.#endRecord();
  }

  #byte(b: number) {
    if (this.keep === undefined || this.keep === this.#fields.length) this.#field.push(b);
  }

  #endField() {
    this.#fields.push(this.#field.length === 0 ? "" : this.#decoder.decode(Uint8Array.from(this.#field)));
    this.#field = [];
  }

  #endRecord() {
    this.#endField();
    const fields = this.#fields;
    const start = this.#recordStart;
    this.#fields = [];
    this.#inQuotes = false;
    this.#quoteSeen = false;
    this.#recordStart = -1;
    this.emit(fields, start, this.#recordLine);
  }
}

/** JSON Lines from bytes pushed in pieces: each non-blank line as its text, with its start offset and line number. */
class JsonLines {
  #bytes: number[] = [];
  #start = -1;
  #line = 1;
  #pos: number;
  readonly #decoder = new TextDecoder();

  constructor(
    private readonly emit: (text: string, start: number, line: number) => void,
    private readonly maxRecordBytes = INPUT_LIMITS.maxRecordBytes,
    startAt = 0,
    startLine = 1,
  ) {
    this.#pos = startAt;
    this.#line = startLine;
  }

  push(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++, this.#pos++) {
      const b = bytes[i];
      if (b === LF) {
        this.#endLine();
        this.#line++;
        continue;
      }
      if (this.#start < 0) this.#start = this.#pos;
      if (this.#bytes.length >= this.maxRecordBytes) throw bad(this.#line, `a line longer than ${this.maxRecordBytes.toLocaleString("en")} bytes.`);
      this.#bytes.push(b);
    }
  }

  skip(n: number): void {
    this.#pos += n;
  }

  end(): void {
    this.#endLine();
  }

  #endLine() {
    const text = this.#bytes.length === 0 ? "" : this.#decoder.decode(Uint8Array.from(this.#bytes));
    const start = this.#start;
    this.#bytes = [];
    this.#start = -1;
    if (text.trim() !== "") this.emit(text, start, this.#line);
  }
}

/** The value a JSON Lines record holds in `column`: a string, or a number (codes written as numbers). */
function jsonValue(text: string, column: string, line: number): { record: Record<string, unknown>; value: string } {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    throw bad(line, "not a JSON value (each line of a JSON Lines file is one JSON object).");
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) throw bad(line, "not a JSON object.");
  const value = (record as Record<string, unknown>)[column];
  if (value === undefined || value === null) return { record: record as Record<string, unknown>, value: "" };
  if (typeof value !== "string" && typeof value !== "number") throw bad(line, `"${column}" is not a string.`);
  return { record: record as Record<string, unknown>, value: String(value) };
}

/**
 * Scans an upload as it streams: checks it is UTF-8 text in the format said, finds the column,
 * counts rows against the limits and cuts chunks (at `chunkRows` rows or `chunkBytes` bytes, whichever
 * comes first). Throws VALIDATION_ERROR with the line where the file went wrong; `PAYLOAD_TOO_LARGE`
 * past the byte limit.
 */
export class InputScanner {
  #header: string[] | null = null;
  #column = -1;
  #rows = 0;
  #bytes = 0;
  #chunks: ChunkRange[] = [];
  #open: Omit<ChunkRange, "length"> | undefined;
  readonly #utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  readonly #reader: CsvRecords | JsonLines;
  #first = true;

  constructor(
    private readonly format: InputFormat,
    private readonly column: string,
    private readonly limits: InputLimits = INPUT_LIMITS,
  ) {
    this.#reader =
      format === "csv"
        ? new CsvRecords((fields, start, line) => this.#csvRecord(fields, start, line), undefined, limits.maxRecordBytes)
        : new JsonLines((text, start, line) => this.#row(jsonValue(text, column, line).value, start, line), limits.maxRecordBytes);
  }

  push(bytes: Uint8Array): void {
    let piece = bytes;
    this.#bytes += piece.length;
    if (this.#bytes > this.limits.maxBytes) {
      throw new ApiError("PAYLOAD_TOO_LARGE", `The file is larger than ${Math.round(this.limits.maxBytes / 1024 / 1024)} MB; split it into several jobs.`);
    }
    try {
      this.#utf8.decode(piece, { stream: true });
    } catch {
      throw new ApiError("VALIDATION_ERROR", `The file is not UTF-8 text (a ${this.format === "csv" ? "CSV" : "JSON Lines"} file was expected).`);
    }
    if (piece.includes(0)) throw new ApiError("VALIDATION_ERROR", "The file holds NUL bytes: it is not a text file.");
    // A byte order mark is not part of the first record (its bytes still count in offsets).
    if (this.#first && piece.length > 0) {
      this.#first = false;
      if (piece[0] === 0xef && piece[1] === 0xbb && piece[2] === 0xbf) {
        this.#reader.skip(3);
        piece = piece.subarray(3);
      }
    }
    this.#reader.push(piece);
  }

  end(): Scan {
    try {
      this.#utf8.decode();
    } catch {
      throw new ApiError("VALIDATION_ERROR", "The file ends inside a UTF-8 character: it is not UTF-8 text.");
    }
    this.#reader.end();
    if (this.format === "csv" && this.#header === null)
      throw new ApiError("VALIDATION_ERROR", "The file is empty: a CSV job needs a header line and at least one row.");
    if (this.#rows === 0) throw new ApiError("VALIDATION_ERROR", "The file has no rows.");
    this.#close(this.#bytes);
    return { header: this.#header, rows: this.#rows, bytes: this.#bytes, chunks: this.#chunks };
  }

  #csvRecord(fields: string[], start: number, line: number) {
    if (this.#header === null) {
      this.#header = fields.map((f) => f.trim());
      this.#column = this.#header.indexOf(this.column);
      if (this.#column < 0) {
        throw bad(line, `the header has no column "${this.column}" (it has: ${this.#header.map((h) => `"${h}"`).join(", ")}).`);
      }
      return;
    }
    this.#row(fields[this.#column] ?? "", start, line);
  }

  #row(value: string, start: number, line: number) {
    if (this.#rows >= this.limits.maxRows) throw bad(line, `more than ${this.limits.maxRows.toLocaleString("en")} rows; split the file into several jobs.`);
    const chars = [...value].length;
    if (chars > this.limits.maxValueChars) throw bad(line, `the value is ${chars} characters long; at most ${this.limits.maxValueChars} are read.`);
    if (!this.#open || this.#open.rows >= this.limits.chunkRows || start - this.#open.offset >= this.limits.chunkBytes) {
      this.#close(start);
      this.#open = { index: this.#chunks.length, firstRow: this.#rows + 1, rows: 0, offset: start, line };
    }
    this.#open.rows++;
    this.#rows++;
  }

  /** The open chunk ends where the next one starts (or at the end of the file). */
  #close(end: number) {
    if (this.#open) this.#chunks.push({ ...this.#open, length: end - this.#open.offset });
    this.#open = undefined;
  }
}

/** One input row as a consumer reads it: its number (1-based, header not counted), the value of the named column, and the record whole. */
export type InputRow = { row: number; line: number; value: string; fields: string[] | Record<string, unknown> };

/** The rows of one chunk (its bytes, as `InputScanner` cut them), in order. */
export function readChunk(
  bytes: Uint8Array,
  format: InputFormat,
  header: string[] | null,
  column: string,
  chunk: Pick<ChunkRange, "firstRow" | "line">,
): InputRow[] {
  const { rows, reader } = chunkReader(format, header, column, chunk);
  reader.push(bytes);
  reader.end();
  return rows;
}

/** Bytes read between two turns of the event loop by `readChunkPaced`: well under a millisecond of parsing. */
const SLICE_BYTES = 4_096;

/**
 * `readChunk` a slice at a time, with a turn of the event loop between slices: parsing a chunk of
 * 1,000 addresses whole took 3 to 10 ms, and a request that arrived meanwhile waited for all of it
 * (docs/performance.md, "Bulk jobs"). The readers take bytes in any cut (they read a byte at a time).
 */
export async function readChunkPaced(
  bytes: Uint8Array,
  format: InputFormat,
  header: string[] | null,
  column: string,
  chunk: Pick<ChunkRange, "firstRow" | "line">,
): Promise<InputRow[]> {
  const { rows, reader } = chunkReader(format, header, column, chunk);
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
    reader.push(bytes.subarray(at, at + SLICE_BYTES));
    if (at + SLICE_BYTES < bytes.length) await nextTurn();
  }
  reader.end();
  return rows;
}

/** A reader of one chunk's format, and the rows it reads into. */
function chunkReader(format: InputFormat, header: string[] | null, column: string, chunk: Pick<ChunkRange, "firstRow" | "line">) {
  const firstRow = chunk.firstRow;
  const rows: InputRow[] = [];
  if (format === "csv") {
    const at = (header ?? []).indexOf(column);
    const reader = new CsvRecords(
      (fields, _start, line) => rows.push({ row: firstRow + rows.length, line, value: fields[at] ?? "", fields }),
      undefined,
      Number.POSITIVE_INFINITY,
      0,
      chunk.line,
    );
    return { rows, reader };
  }
  const reader = new JsonLines(
    (text, _start, line) => {
      const { record, value } = jsonValue(text, column, line);
      rows.push({ row: firstRow + rows.length, line, value, fields: record });
    },
    Number.POSITIVE_INFINITY,
    0,
    chunk.line,
  );
  return { rows, reader };
}
