/**
 * A chunk's result lines written to R2 a slice at a time. Joined and stored in one put, a chunk of
 * 1,000 address answers (about 700 KB) held the isolate and the local R2 for 20 to 27 ms every chunk,
 * and the calls that came meanwhile were the slowest of a job (docs/performance.md, "Bulk jobs").
 * Here the lines are encoded in slices with a turn of the event loop between, and the object is
 * streamed to R2 with its length known up front (FixedLengthStream), so the put reads a slice at a
 * time as well. Same bytes as `${lines.join("\n")}\n`.
 */

import { nextTurn } from "../lib/time";

/** Characters encoded, and bytes written, between two turns of the event loop. */
export const SLICE_CHARS = 32 * 1024;

/** `lines`, each followed by a line break, as UTF-8 slices of about SLICE_CHARS, a turn between slices. */
export async function encodeLinesPaced(lines: string[]): Promise<Uint8Array[]> {
  const encoder = new TextEncoder();
  const slices: Uint8Array[] = [];
  let piece: string[] = [];
  let size = 0;
  for (const line of lines) {
    piece.push(line);
    size += line.length + 1;
    if (size >= SLICE_CHARS) {
      slices.push(encoder.encode(`${piece.join("\n")}\n`));
      piece = [];
      size = 0;
      await nextTurn();
    }
  }
  if (piece.length) slices.push(encoder.encode(`${piece.join("\n")}\n`));
  return slices;
}

/** Stores `lines` (each followed by a line break) under `key`, a slice at a time. */
export async function putLinesPaced(bucket: R2Bucket, key: string, lines: string[]): Promise<void> {
  const slices = await encodeLinesPaced(lines);
  const stream = new FixedLengthStream(slices.reduce((n, s) => n + s.length, 0));
  const writer = stream.writable.getWriter();
  const put = bucket.put(key, stream.readable);
  const write = (async () => {
    for (const slice of slices) {
      await writer.write(slice);
      await nextTurn();
    }
    await writer.close();
  })();
  try {
    await put;
  } catch (e) {
    // A put that failed reads no more: the writer would wait for it for ever. The chunk is retried.
    await writer.abort(e).catch(() => undefined);
    await write.catch(() => undefined);
    throw e;
  }
  await write;
}
