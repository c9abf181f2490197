import { describe, expect, it } from "vitest";
import { ApiError } from "../lib/errors";
import { INPUT_LIMITS, InputScanner, readChunk, readChunkPaced } from "./input";

const enc = new TextEncoder();

/** Scans `text` pushed in pieces of `piece` bytes (so records straddle pieces). */
function scan(text: string, format: "csv" | "jsonl", column: string, piece = 7, limits = { ...INPUT_LIMITS, chunkRows: 2 }) {
  const s = new InputScanner(format, column, limits);
  const bytes = enc.encode(text);
  for (let i = 0; i < bytes.length; i += piece) s.push(bytes.subarray(i, i + piece));
  return { scan: s.end(), bytes };
}

function failure(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("no failure");
}

describe("jobs/input", () => {
  const csv = 'id,alamat\r\n1,"Jl. Merdeka 5, Bandung"\r\n2,"Kec. ""Coblong""\nKota Bandung"\r\n\r\n3,Sleman\n4,Depok';

  it("CSV: header, quoted commas, doubled quotes and line breaks inside quotes, CR LF, blank lines; chunks as byte ranges", () => {
    for (const piece of [1, 3, 7, 1000]) {
      const { scan: s, bytes } = scan(csv, "csv", "alamat", piece);
      expect(s.header).toEqual(["id", "alamat"]);
      expect(s.rows).toBe(4);
      expect(s.chunks.map((c) => [c.index, c.firstRow, c.rows])).toEqual([
        [0, 1, 2],
        [1, 3, 2],
      ]);
      expect(s.chunks[0].offset).toBe("id,alamat\r\n".length);
      expect(s.chunks[1].offset + s.chunks[1].length).toBe(bytes.length);
      const rows = s.chunks.flatMap((c) => readChunk(bytes.subarray(c.offset, c.offset + c.length), "csv", s.header, "alamat", c));
      expect(rows.map((r) => [r.row, r.value])).toEqual([
        [1, "Jl. Merdeka 5, Bandung"],
        [2, 'Kec. "Coblong"\nKota Bandung'],
        [3, "Sleman"],
        [4, "Depok"],
      ]);
      expect(rows[2].fields).toEqual(["3", "Sleman"]);
      expect(rows[2].line).toBe(6);
    }
  });

  it("a byte order mark is skipped but counted in offsets; UTF-8 values are measured in characters", () => {
    const text = "\uFEFFalamat\nDesa Ngadirejo\nKampung Ça\n";
    const { scan: s, bytes } = scan(text, "csv", "alamat", 2);
    expect(s.header).toEqual(["alamat"]);
    const rows = readChunk(bytes.subarray(s.chunks[0].offset, s.chunks[0].offset + s.chunks[0].length), "csv", s.header, "alamat", s.chunks[0]);
    expect(rows.map((r) => r.value)).toEqual(["Desa Ngadirejo", "Kampung Ça"]);
    expect(scan(`alamat\n${"é".repeat(500)}\n`, "csv", "alamat").scan.rows).toBe(1);
  });

  it("read a slice at a time (readChunkPaced), a chunk gives the same rows: quotes, line breaks and UTF-8 characters cut between slices", async () => {
    const values = Array.from({ length: 400 }, (_, i) => `Kampung Ça ${i}, "Désa" Ñgadirejo 🏝️\nblok ${"é".repeat(i % 17)}`);
    const text = `id,alamat\n${values.map((v, i) => `${i},"${v.replaceAll('"', '""')}"`).join("\r\n")}\n`;
    const { scan: s, bytes } = scan(text, "csv", "alamat", 4_096, { ...INPUT_LIMITS, chunkRows: 1_000 });
    expect(s.chunks).toHaveLength(1);
    expect(bytes.length).toBeGreaterThan(5 * 4_096);
    for (const c of s.chunks) {
      const part = bytes.subarray(c.offset, c.offset + c.length);
      expect(await readChunkPaced(part, "csv", s.header, "alamat", c)).toEqual(readChunk(part, "csv", s.header, "alamat", c));
    }
    const all = (await Promise.all(s.chunks.map((c) => readChunkPaced(bytes.subarray(c.offset, c.offset + c.length), "csv", s.header, "alamat", c)))).flat();
    expect(all.map((r) => r.value)).toEqual(values);
    const jsonl = values.map((v) => JSON.stringify({ alamat: v })).join("\n");
    const j = scan(jsonl, "jsonl", "alamat", 4_096, { ...INPUT_LIMITS, chunkRows: 1_000 });
    const jrows = (
      await Promise.all(j.scan.chunks.map((c) => readChunkPaced(j.bytes.subarray(c.offset, c.offset + c.length), "jsonl", null, "alamat", c)))
    ).flat();
    expect(jrows.map((r) => r.value)).toEqual(values);
  });

  it("JSON Lines: the column of each object; numbers read as text; blank lines skipped", () => {
    const text = '{"kode":"32.73"}\n\n{"kode":3273,"x":1}\n{"kode":"11.01"}';
    const { scan: s, bytes } = scan(text, "jsonl", "kode", 5);
    expect(s.header).toBeNull();
    expect(s.rows).toBe(3);
    const rows = s.chunks.flatMap((c) => readChunk(bytes.subarray(c.offset, c.offset + c.length), "jsonl", null, "kode", c));
    expect(rows.map((r) => [r.row, r.value, r.line])).toEqual([
      [1, "32.73", 1],
      [2, "3273", 3],
      [3, "11.01", 4],
    ]);
  });

  it("bad input: a clear error with the line where it went wrong", () => {
    expect(failure(() => scan("id,kota\n1,x\n", "csv", "alamat"))).toEqual({
      code: "VALIDATION_ERROR",
      message: 'Line 1: the header has no column "alamat" (it has: "id", "kota").',
    });
    expect(failure(() => scan("", "csv", "alamat")).message).toMatch(/empty/);
    expect(failure(() => scan("alamat\n", "csv", "alamat")).message).toMatch(/no rows/);
    expect(failure(() => scan(`alamat\nok\n${"x".repeat(501)}\n`, "csv", "alamat")).message).toBe(
      "Line 3: the value is 501 characters long; at most 500 are read.",
    );
    expect(failure(() => scan('alamat\n"open\nmore\n', "csv", "alamat")).message).toBe("Line 2: a quoted field is never closed.");
    expect(failure(() => scan('{"kode":"1"}\nnot json\n', "jsonl", "kode")).message).toMatch(/^Line 2: not a JSON value/);
    expect(failure(() => scan('{"kode":"1"}\n[1]\n', "jsonl", "kode")).message).toBe("Line 2: not a JSON object.");
    expect(failure(() => scan("alamat\n\u0000\u0001\n", "csv", "alamat")).message).toMatch(/NUL/);
    const s = new InputScanner("csv", "alamat");
    expect(failure(() => s.push(Uint8Array.from([0x61, 0xff, 0xfe, 0x0a]))).message).toMatch(/not UTF-8/);
  });

  it("limits: rows, bytes, one record's length", () => {
    const small = { ...INPUT_LIMITS, maxRows: 2, maxBytes: 100, maxRecordBytes: 30 };
    expect(failure(() => scan("alamat\na\nb\nc\n", "csv", "alamat", 7, small)).message).toBe("Line 4: more than 2 rows; split the file into several jobs.");
    expect(failure(() => scan(`alamat\n${"a\n".repeat(60)}`, "csv", "alamat", 7, { ...small, maxRows: 1000 })).code).toBe("PAYLOAD_TOO_LARGE");
    expect(failure(() => scan(`alamat\n"${"a".repeat(40)}\n`, "csv", "alamat", 7, small)).message).toMatch(/^Line 2: a record longer than 30 bytes/);
  });
});
