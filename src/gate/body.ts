/**
 * A route's body limit, applied by the gate before anything reads the body: a declared
 * Content-Length over it is refused at once (413, nothing read), and any body is handed on through a
 * counter that fails the read (413) as soon as it passes the limit, so a body without a length (or
 * with a false one) is never read further than the limit either. Nothing is buffered here: a bulk
 * job's 200 MB upload still streams to storage.
 */
import type { Context } from "hono";
import { FORM_LIMITS } from "../http/multipart";
import { INPUT_LIMITS } from "../jobs/input";
import { ApiError } from "../lib/errors";
import type { GatePolicy } from "./policy";

/** JSON bodies of account and data routes unless a route says otherwise. */
export const DEFAULT_BODY_BYTES = 64 * 1024;
/** A bulk job's upload: the file's own limit, and room for a form's fields and boundaries around it. */
export const UPLOAD_BODY_BYTES = INPUT_LIMITS.maxBytes + FORM_LIMITS.maxBytes + 4096;

export const bodyLimitOf = (policy: GatePolicy): number => (policy.body === "upload" ? UPLOAD_BODY_BYTES : (policy.body ?? DEFAULT_BODY_BYTES));

const spoken = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KiB`);

const tooLarge = (limit: number) => new ApiError("PAYLOAD_TOO_LARGE", `The request body is larger than ${spoken(limit)}, this route's limit.`);

/** 413 when the request says its body is longer than `limit` (nothing is read). */
export function refuseDeclaredLength(c: Context, limit: number): void {
  const declared = c.req.header("content-length");
  if (declared === undefined) return;
  const n = Number(declared);
  if (!/^\d+$/.test(declared.trim()) || !Number.isSafeInteger(n)) throw new ApiError("VALIDATION_ERROR", "Content-Length is not a number of bytes.");
  if (n > limit) throw tooLarge(limit);
}

/** The body from now on through a counter: reading past `limit` bytes fails with 413. */
export function countBody(c: Context, limit: number): void {
  const raw = c.req.raw;
  if (!raw.body) return;
  const reader = raw.body.getReader();
  let read = 0;
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      read += value.byteLength;
      if (read > limit) {
        await reader.cancel().catch(() => undefined);
        controller.error(tooLarge(limit));
        return;
      }
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  c.req.raw = new Request(raw, { body: counted });
}
