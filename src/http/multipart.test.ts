import { describe, expect, it } from "vitest";
import { ApiError } from "../lib/errors";
import { boundaryOf, readMultipartUpload } from "./multipart";

/** A form as a browser or curl sends it, re-cut into pieces of `piece` bytes (so delimiters straddle pieces). */
async function form(fields: Record<string, string>, file: { name: string; content: string; type: string } | null, piece: number) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  if (file) fd.set("file", new File([file.content], file.name, { type: file.type }));
  const res = new Response(fd);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += piece) c.enqueue(bytes.slice(i, i + piece));
      c.close();
    },
  });
  return { body, boundary: boundaryOf(res.headers.get("content-type") ?? "") as string };
}

describe("http/multipart", () => {
  it("the fields before the file, then the file's bytes exactly, whatever the pieces", async () => {
    const content = `alamat\n${"Jl. Merdeka 5, Bandung\r\n--not-a-boundary\n".repeat(500)}é\n`;
    for (const piece of [1, 7, 64, 4096, 1 << 20]) {
      const { body, boundary } = await form({ kind: "address", column: "alamat" }, { name: "a.csv", content, type: "text/csv" }, piece);
      const up = await readMultipartUpload(body, boundary);
      expect(up.fields).toEqual({ kind: "address", column: "alamat" });
      expect(up.filename).toBe("a.csv");
      expect(up.type).toBe("text/csv");
      expect(await new Response(up.file).text()).toBe(content);
    }
  });

  it("no file: the fields only; a body cut short or without parts is refused", async () => {
    const { body, boundary } = await form({ kind: "convert" }, null, 5);
    expect(await readMultipartUpload(body, boundary)).toMatchObject({ fields: { kind: "convert" }, file: null });
    const cut = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="kind"\r\n\r\naddr'));
        c.close();
      },
    });
    await expect(readMultipartUpload(cut, "b")).rejects.toBeInstanceOf(ApiError);
  });

  it("boundaryOf reads quoted and bare boundaries of multipart/form-data only", () => {
    expect(boundaryOf("multipart/form-data; boundary=abc123")).toBe("abc123");
    expect(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b"')).toBe("a b");
    expect(boundaryOf("text/csv")).toBeNull();
    expect(boundaryOf(undefined)).toBeNull();
  });
});
