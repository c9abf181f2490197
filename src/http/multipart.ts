/**
 * A multipart/form-data body read as a stream (RFC 7578): the text fields before the first file,
 * then that file's bytes as a stream of their own, never held whole. For uploads too large to
 * buffer (a bulk job's 200 MB file). The stable npm parsers buffer each part (multipart-parser's
 * streaming parts are only in its unstable `/future` entry), hence this small reader.
 *
 * Fields after the file are not read (send them first, as `curl -F kind=… -F file=@…` does). What
 * comes before the file is bounded as a whole (FORM_LIMITS: a few fields, a few KiB), so a form of
 * thousands of large fields is refused after its first KiBs instead of being held in memory.
 */
import { ApiError } from "../lib/errors";

const CRLF = new Uint8Array([13, 10]);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The parts before the file: at most this many fields, and this many bytes in all (boundaries and part headers counted). */
export const FORM_LIMITS = { maxFields: 16, maxBytes: 16 * 1024 };

export type MultipartUpload = { fields: Record<string, string>; file: ReadableStream<Uint8Array> | null; filename: string | null; type: string | null };

/** The boundary of a `multipart/form-data` content type, or null for another type. */
export function boundaryOf(contentType: string | undefined): string | null {
  const m = /^multipart\/form-data\s*;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  return m ? (m[1] ?? m[2]) : null;
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i <= hay.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const malformed = (why: string) => new ApiError("VALIDATION_ERROR", `The form is not valid multipart/form-data: ${why}.`);

/** Bytes of `body` with a look-ahead buffer, for finding delimiters that may straddle chunks. */
class Bytes {
  buffer: Uint8Array = new Uint8Array(0);
  done = false;
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** Reads more; false at the end of the body. */
  async more(): Promise<boolean> {
    if (this.done) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.done = true;
      return false;
    }
    this.buffer = concat(this.buffer, value);
    return true;
  }

  /** Everything up to `needle` (consumed with it), reading as needed; at most `max` bytes. */
  async until(needle: Uint8Array, max: number): Promise<Uint8Array> {
    for (let from = 0; ; ) {
      const at = indexOf(this.buffer, needle, from);
      if (at >= 0) {
        const out = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + needle.length);
        return out;
      }
      if (this.buffer.length > max) throw malformed("a part's headers or field are too long");
      from = Math.max(0, this.buffer.length - needle.length + 1);
      if (!(await this.more())) throw malformed("it ends before its closing boundary");
    }
  }
}

/** Reads the fields before the first file part, and hands that file over as a stream. */
export async function readMultipartUpload(body: ReadableStream<Uint8Array>, boundary: string, limits = FORM_LIMITS): Promise<MultipartUpload> {
  const bytes = new Bytes(body.getReader());
  const dashBoundary = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  let used = 0;
  /** The next piece up to `needle`, counted against what the form may hold before its file. */
  const next = async (needle: Uint8Array) => {
    const left = limits.maxBytes - used;
    let piece: Uint8Array;
    try {
      piece = await bytes.until(needle, left);
    } catch (e) {
      if (bytes.buffer.length > left) throw tooLarge(limits);
      throw e;
    }
    used += piece.length + needle.length;
    if (used > limits.maxBytes) throw tooLarge(limits);
    return piece;
  };
  await next(dashBoundary); // the preamble, ignored
  const fields: Record<string, string> = {};
  for (let count = 0; ; count++) {
    // After a boundary: "--" ends the body, else CRLF and a part's headers.
    while (bytes.buffer.length < 2 && (await bytes.more()));
    if (bytes.buffer[0] === 45 && bytes.buffer[1] === 45) return { fields, file: null, filename: null, type: null };
    if (count > limits.maxFields)
      throw new ApiError(
        "VALIDATION_ERROR",
        `The form has more than ${limits.maxFields} fields before its file; send only kind, from, column and format, then the file.`,
      );
    await next(CRLF);
    const headers = decoder.decode(await next(encoder.encode("\r\n\r\n")));
    const disposition = /content-disposition:\s*form-data\s*;([^\r\n]*)/i.exec(headers)?.[1] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
    if (name === undefined) throw malformed("a part has no name");
    if (filename === null) {
      fields[name] = decoder.decode(await next(delimiter));
      continue;
    }
    const type = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim().toLowerCase() ?? null;
    return { fields, filename, type, file: fileStream(bytes, delimiter) };
  }
}

const tooLarge = (limits: typeof FORM_LIMITS) =>
  new ApiError(
    "PAYLOAD_TOO_LARGE",
    `The form's fields before its file are larger than ${limits.maxBytes / 1024} KiB; send only kind, from, column and format, then the file.`,
  );

/** The file part's bytes up to the delimiter; what follows it is not read. */
function fileStream(bytes: Bytes, delimiter: Uint8Array): ReadableStream<Uint8Array> {
  let ended = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (ended) {
          controller.close();
          return;
        }
        const at = indexOf(bytes.buffer, delimiter);
        if (at >= 0) {
          if (at > 0) controller.enqueue(bytes.buffer.slice(0, at));
          bytes.buffer = new Uint8Array(0);
          ended = true;
          controller.close();
          return;
        }
        // All but the last delimiter-length bytes are surely file content.
        const safe = bytes.buffer.length - delimiter.length + 1;
        if (safe > 0) {
          controller.enqueue(bytes.buffer.slice(0, safe));
          bytes.buffer = bytes.buffer.slice(safe);
          return;
        }
        if (!(await bytes.more())) {
          controller.error(malformed("the file part never ends"));
          return;
        }
      }
    },
  });
}
