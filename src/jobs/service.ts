/**
 * Bulk jobs (docs/api.md, "Bulk jobs"): a file in, streamed to R2 as it arrives and scanned on the
 * way (input.ts); its rows reserved from quota and credits (src/account/jobs.ts); cut into chunks,
 * one queue message each; each chunk answered by the single endpoints' services (answers.ts) and
 * recorded once (consumer.ts); the result streamed back in input order.
 *
 * R2 keys: `jobs/<id>/input` (the file as uploaded), `jobs/<id>/chunks` (its chunks' byte ranges, JSON:
 * what the watchdog re-sends from), `jobs/<id>/out/<chunk>` (one JSON Lines object per chunk). All
 * are deleted RESULT_DAYS after the job was made.
 */
import { endJobRows, forgetJobRows, reserveJobRows } from "../account/jobs";
import { primaryDb } from "../db/client";
import type { Principal } from "../keys/service";
import { newId } from "../lib/crypto";
import { csvLine } from "../lib/csv";
import { ApiError } from "../lib/errors";
import { errorText, log } from "../lib/log";
import { type Paging, pageWindow } from "../lib/paging";
import { retried } from "../lib/retry";
import { runSteps } from "../lib/steps";
import { iso } from "../lib/time";
import { announceJob } from "../webhooks/publisher";
import { answerCells, answerColumns, type JobKind, type RowAnswer } from "./answers";
import { type ChunkRange, type InputFormat, InputScanner } from "./input";
import {
  deleteJobs,
  doneChunks,
  expiredJobs,
  FINAL_STATES,
  findJob,
  findJobOfUser,
  finishJob,
  insertJob,
  type JobRow,
  jobsOfUser,
  markSettled,
} from "./queries";

/** How long a job's files (input and result) are kept. */
export const RESULT_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
/** R2 multipart parts: all but the last the same size, at least 5 MiB. The upload holds one in memory. */
const PART_BYTES = 8 * 1024 * 1024;
/** Messages per queue sendBatch (the Queues limit). */
const SEND_BATCH = 100;

/** One chunk to process: where its bytes are in the input, and its first row. */
export type JobMessage = { job: string; chunk: number; offset: number; length: number; firstRow: number; line: number };
/** A processed row as stored in a chunk's result. */
export type ResultLine = { row: number; input: string[] | Record<string, unknown>; answer: RowAnswer };

export const inputKey = (id: string) => `jobs/${id}/input`;
export const outKey = (id: string, chunk: number) => `jobs/${id}/out/${chunk}`;
export const chunksKey = (id: string) => `jobs/${id}/chunks`;

/** A job as the API shows it. */
export function jobView(j: JobRow, now = Date.now()) {
  const final = FINAL_STATES.includes(j.state);
  let secondsLeft: number | null = null;
  if (j.state === "running" && j.rowsDone > 0 && j.progressAt !== null) {
    // The pace so far (since the job was accepted, until its last chunk was done), and from that
    // chunk on the time that passed since: counts down between chunks instead of growing with the
    // wait for the next one (started_at is when the first chunk was done, not begun).
    const msPerRow = Math.max(0, j.progressAt - j.createdAt) / j.rowsDone;
    const leftAtProgress = msPerRow * (j.rowsTotal - j.rowsDone);
    secondsLeft = Math.max(1, Math.ceil((leftAtProgress - Math.max(0, now - j.progressAt)) / 1000));
  }
  return {
    id: j.id,
    kind: j.kind,
    from: j.kind === "convert" ? (j.codeSystem ?? "kemendagri") : null,
    state: j.state,
    input: { format: j.format, column: j.column, bytes: j.inputBytes, header: j.header ? (JSON.parse(j.header) as string[]) : null },
    rows: { total: j.rowsTotal, done: j.rowsDone, warned: j.rowsWarned },
    chunks: { total: j.chunksTotal, done: j.chunksDone },
    cost: { calls: j.rowsTotal, credits_reserved: j.credits },
    data_versions: j.dataVersions ? j.dataVersions.split(",") : [],
    error: j.error,
    estimated_seconds_left: final ? 0 : secondsLeft,
    created_at: iso(j.createdAt),
    started_at: iso(j.startedAt),
    finished_at: iso(j.finishedAt),
    expires_at: iso(j.expiresAt),
    result: final && j.rowsDone > 0 ? `/api/v1/jobs/${j.id}/result` : null,
  };
}

/** Streams `body` to R2 under `key` while `scanner` reads it; at most one part in memory. */
async function storeInput(bucket: R2Bucket, key: string, body: ReadableStream<Uint8Array>, scanner: InputScanner): Promise<void> {
  const reader = body.getReader();
  let part = new Uint8Array(PART_BYTES);
  let filled = 0;
  let upload: R2MultipartUpload | undefined;
  const parts: R2UploadedPart[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      scanner.push(value);
      for (let at = 0; at < value.length; ) {
        const n = Math.min(value.length - at, PART_BYTES - filled);
        part.set(value.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === PART_BYTES) {
          upload ??= await bucket.createMultipartUpload(key);
          parts.push(await upload.uploadPart(parts.length + 1, part));
          part = new Uint8Array(PART_BYTES);
          filled = 0;
        }
      }
    }
    if (!upload) {
      await bucket.put(key, part.subarray(0, filled));
      return;
    }
    if (filled > 0) parts.push(await upload.uploadPart(parts.length + 1, part.subarray(0, filled)));
    await upload.complete(parts);
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    await upload?.abort().catch(() => undefined);
    throw e;
  }
}

/**
 * A new job: the upload stored and scanned (a bad file is refused with its line, nothing kept or
 * charged), its rows reserved (402 when quota and credits cannot cover them all), its chunks queued.
 */
export async function createJob(
  env: Env,
  principal: Principal,
  o: { kind: JobKind; from?: "kemendagri" | "bps"; format: InputFormat; column: string; body: ReadableStream<Uint8Array> | null },
  now = Date.now(),
): Promise<JobRow> {
  const body = o.body;
  if (!body) throw new ApiError("VALIDATION_ERROR", "The file is empty: send it as the request body (or the `file` field of a form).");
  const id = newId("job");
  const scanner = new InputScanner(o.format, o.column);
  const notStored = (e: unknown) => {
    log.error("job_input_store_failed", { job_id: id, error: errorText(e) });
    return new ApiError("SERVICE_UNAVAILABLE", "The file could not be stored; nothing was charged. Try again in a moment.");
  };
  // Set by the steps below, in order: each step reads only what the steps before it set.
  let scan!: ReturnType<InputScanner["end"]>;
  let row!: JobRow;
  // Until the job is recorded, a step that fails undoes those done before it (in reverse): a failed
  // creation leaves no file stored, no rows reserved and no row written.
  await runSteps([
    {
      // The file, streamed to R2 as it is scanned.
      run: () => storeInput(env.JOBS, inputKey(id), body, scanner),
      undo: () => env.JOBS.delete(inputKey(id)),
      failed: (e) => (e instanceof ApiError ? e : notStored(e)),
    },
    // Its rows and chunks; a file that is not what it says fails here with its ApiError.
    {
      run: async () => {
        scan = scanner.end();
      },
    },
    {
      // The chunks' ranges, kept beside the input before anything is charged: the watchdog re-sends from them.
      run: () => env.JOBS.put(chunksKey(id), JSON.stringify(scan.chunks)),
      undo: () => env.JOBS.delete(chunksKey(id)),
      failed: notStored,
    },
    {
      run: async () => {
        const { credits } = await reserveJobRows(env, principal, { id, endpoint: `/jobs/${o.kind}`, rows: scan.rows });
        row = newJobRow(id, principal, o, scan, credits, now);
      },
      undo: () => endJobRows(env, principal.userId, id),
    },
    {
      run: () => insertJob(primaryDb(env), row),
      failed: (e) => {
        log.error("job_create_failed", { job_id: id, error: errorText(e) });
        return new ApiError("SERVICE_UNAVAILABLE", "The job could not be recorded; nothing was charged. Try again in a moment.");
      },
    },
  ]);
  // The job exists from here: a failure to queue it ends it as failed, not undone, since chunks
  // already queued may run: they are charged and kept; the rest of the reservation goes back.
  try {
    await enqueueChunks(env, id, scan.chunks);
  } catch (e) {
    log.error("job_enqueue_failed", { job_id: id, error: errorText(e) });
    await failJob(env, id, "The job could not be queued whole; rows done before this are kept and charged.");
    throw new ApiError("SERVICE_UNAVAILABLE", "The job could not be queued; what it reserved was given back. Try again in a moment.");
  }
  return row;
}

/** A new job's row, queued: its input as scanned, the credits its reservation holds. */
function newJobRow(
  id: string,
  principal: Principal,
  o: { kind: JobKind; from?: "kemendagri" | "bps"; format: InputFormat; column: string },
  scan: ReturnType<InputScanner["end"]>,
  credits: number,
  now: number,
): JobRow {
  return {
    id,
    userId: principal.userId,
    keyId: principal.keyId,
    kind: o.kind,
    format: o.format,
    column: o.column,
    header: scan.header ? JSON.stringify(scan.header) : null,
    state: "queued",
    rowsTotal: scan.rows,
    rowsDone: 0,
    rowsWarned: 0,
    chunksTotal: scan.chunks.length,
    chunksDone: 0,
    inputBytes: scan.bytes,
    credits,
    error: null,
    createdAt: now,
    startedAt: null,
    finishedAt: null,
    expiresAt: now + RESULT_DAYS * DAY_MS,
    progressAt: now,
    settledAt: null,
    dataVersions: null,
    codeSystem: o.kind === "convert" ? (o.from ?? "kemendagri") : null,
  };
}

export async function enqueueChunks(env: Env, id: string, chunks: ChunkRange[]): Promise<void> {
  for (let at = 0; at < chunks.length; at += SEND_BATCH) {
    await env.JOB_QUEUE.sendBatch(
      chunks.slice(at, at + SEND_BATCH).map((c) => ({
        body: { job: id, chunk: c.index, offset: c.offset, length: c.length, firstRow: c.firstRow, line: c.line } satisfies JobMessage,
      })),
    );
  }
}

/** A job ends badly: its rows done are kept and charged, the rest of its reservation goes back. */
export async function failJob(env: Env, id: string, error: string): Promise<void> {
  await finishJob(primaryDb(env), id, "failed", Date.now(), error);
  await jobEnded(env, id);
}

/**
 * After a job reached a final state: the rest of its reservation goes back and (done or failed) the
 * account's webhooks hear of it. Both are idempotent, so this runs again whenever a message of a
 * final job arrives, and from the watchdog until both are confirmed (`settled_at`): a step whose
 * answer was lost after the state changed is completed then. Tried a few times; the state change
 * itself is already written, so a failure here is logged, not thrown.
 */
export async function jobEnded(env: Env, id: string): Promise<void> {
  const job = await findJob(primaryDb(env), id);
  if (job) await settleEnded(env, job);
}

/** `jobEnded` for a job already read: the row as it is after (`settledAt` set once both steps are confirmed). */
async function settleEnded(env: Env, job: JobRow): Promise<JobRow> {
  const id = job.id;
  if (!FINAL_STATES.includes(job.state) || job.settledAt !== null) return job;
  const released = await retried(() => endJobRows(env, job.userId, id), { attempts: 4, backoffMs: 50, event: "job_release_failed", fields: { job_id: id } });
  const state = job.state;
  // cancelled by the caller: nothing to announce
  const announced = state !== "done" && state !== "failed" ? true : await announceEnd(env, job, state);
  if (!released || !announced) return job;
  const settledAt = Date.now();
  await markSettled(primaryDb(env), id, settledAt);
  return { ...job, settledAt };
}

async function announceEnd(env: Env, job: JobRow, state: "done" | "failed"): Promise<boolean> {
  const id = job.id;
  const data = {
    job: {
      id,
      kind: job.kind,
      state,
      rows: { total: job.rowsTotal, done: job.rowsDone, warned: job.rowsWarned },
      error: job.error,
      finished_at: iso(job.finishedAt),
      result_url: job.rowsDone > 0 ? `${env.PUBLIC_API_URL.replace(/\/$/, "")}/api/v1/jobs/${id}/result` : null,
    },
  };
  return retried(() => announceJob(env, job.userId, state === "done" ? "job.completed" : "job.failed", data), {
    attempts: 4,
    backoffMs: 50,
    event: "job_webhook_failed",
    fields: { job_id: id },
  });
}

export async function getJob(env: Env, userId: string, id: string): Promise<JobRow> {
  const job = await findJobOfUser(primaryDb(env), userId, id);
  if (!job) throw new ApiError("NOT_FOUND", `No job "${id}" in your account.`);
  return job;
}

export async function listJobs(env: Env, userId: string, paging: Paging) {
  const w = pageWindow(paging);
  const { total, rows } = await jobsOfUser(primaryDb(env), userId, w.limit, w.offset);
  return { jobs: rows, meta: w.meta(total) };
}

/** Stops a job: chunks not yet done are not processed; rows done stay in the result and are charged; the rest goes back. */
export async function cancelJob(env: Env, userId: string, id: string): Promise<JobRow> {
  const job = await getJob(env, userId, id);
  if (FINAL_STATES.includes(job.state)) throw new ApiError("JOB_FINISHED", `Job ${id} is already ${job.state}.`);
  // The update answers the row it wrote: no read after it. Nothing written: the job ended meanwhile
  // (its last chunk, a failure), and the row as it ended is read.
  const cancelled = await finishJob(primaryDb(env), id, "cancelled", Date.now());
  if (cancelled) return settleEnded(env, cancelled);
  await jobEnded(env, id);
  return getJob(env, userId, id);
}

/**
 * The result, streamed: the input's columns and the answer's, row by row in input order, from the
 * chunks done. Only once the job is over (done, failed or cancelled).
 */
export async function jobResult(env: Env, userId: string, id: string, format: "csv" | "jsonl"): Promise<ReadableStream<Uint8Array>> {
  const job = await getJob(env, userId, id);
  if (!FINAL_STATES.includes(job.state)) throw new ApiError("JOB_NOT_FINISHED", `Job ${id} is ${job.state}: its result can be read once it is done.`);
  const chunks = await doneChunks(primaryDb(env), id);
  const header = job.header ? (JSON.parse(job.header) as string[]) : [job.column];
  const encoder = new TextEncoder();
  let next = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (format === "csv" && !started) {
        started = true;
        controller.enqueue(encoder.encode(`${csvLine(["row", ...header, ...answerColumns(job.kind)])}\r\n`));
        return;
      }
      if (next >= chunks.length) {
        controller.close();
        return;
      }
      const object = await env.JOBS.get(outKey(id, chunks[next++]));
      if (!object) {
        controller.error(new Error(`job ${id}: a chunk's result is missing`));
        return;
      }
      const lines = (await object.text()).split("\n").filter((l) => l !== "");
      const out = lines.map((l) => {
        const r = JSON.parse(l) as ResultLine;
        if (format === "jsonl") return `${JSON.stringify(r)}\n`;
        const cells = Array.isArray(r.input)
          ? header.map((_, i) => (r.input as string[])[i] ?? "")
          : header.map((h) => String((r.input as Record<string, unknown>)[h] ?? ""));
        return `${csvLine([r.row, ...cells, ...answerCells(job.kind, r.answer)])}\r\n`;
      });
      controller.enqueue(encoder.encode(out.join("")));
    },
  });
}

/** Jobs deleted per cron run (each costs an R2 listing and a delete or two). */
const PRUNE_BATCH = 50;

/**
 * The cron's sweep: jobs made more than RESULT_DAYS ago lose their files, then their rows, then the
 * account object forgets them (a job somehow still running by then is failed first, so its
 * reservation goes back; one whose ledger entry is not written yet waits for a later run). Returns
 * how many went.
 */
export async function pruneExpiredJobs(env: Env, now = Date.now()): Promise<number> {
  const old = [];
  for (const job of await expiredJobs(primaryDb(env), now, PRUNE_BATCH)) {
    if (!FINAL_STATES.includes(job.state)) await failJob(env, job.id, `Not finished within ${RESULT_DAYS} days.`);
    if (!(await forgetJobRows(env, job.userId, job.id))) continue;
    old.push(job);
    for (let cursor: string | undefined; ; ) {
      const listed = await env.JOBS.list({ prefix: `jobs/${job.id}/`, cursor });
      if (listed.objects.length > 0) await env.JOBS.delete(listed.objects.map((o) => o.key));
      if (!listed.truncated) break;
      cursor = listed.cursor;
    }
  }
  await deleteJobs(
    primaryDb(env),
    old.map((j) => j.id),
  );
  return old.length;
}
