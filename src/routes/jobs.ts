import { Hono } from "hono";
import type { CallEnv } from "../data/context";
import { gate } from "../gate";
import { doc } from "../http/docs";
import { boundaryOf, readMultipartUpload } from "../http/multipart";
import { queryParams } from "../http/validate";
import type { InputFormat } from "../jobs/input";
import { createJobQuery, JOB_CODE_SYSTEMS, JOB_KINDS, jobListResponse, jobPaging, jobResponse, jobResultQuery } from "../jobs/schemas";
import { cancelJob, createJob, getJob, jobResult, jobView, listJobs, RESULT_DAYS } from "../jobs/service";
import { ApiError } from "../lib/errors";

/** Mounted at /api/v1/jobs: bulk jobs, with the API key like every data call (docs/api.md, "Bulk jobs"). */
export const jobRoutes = new Hono<CallEnv>();
const tags = ["Bulk jobs"];
/** A secret key (a job's file and results belong on a server): the account's request rate. */
const requireKey = gate<CallEnv>({ callers: ["secretKey"], tag: tags[0] });
/** The upload: the plan's rate and quota left are decided before a byte of the file is read; 200 MB at most, streamed. */
const uploadGate = gate<CallEnv>({ callers: ["secretKey"], tag: tags[0], meter: "upload", body: "upload", log: { surface: "jobs", route: "/jobs" } });
const idParam = { in: "path", name: "id", required: true, schema: { type: "string" }, description: "The job's id (`job_...`)" };

const FORMATS: Record<string, InputFormat> = {
  "text/csv": "csv",
  "application/x-ndjson": "jsonl",
  "application/jsonl": "jsonl",
  "application/x-jsonlines": "jsonl",
};
const KINDS: readonly string[] = JOB_KINDS;
type CodeSystem = (typeof JOB_CODE_SYSTEMS)[number];
const SYSTEMS: readonly string[] = JOB_CODE_SYSTEMS;

/** A raw file's format: said in the query, else by its Content-Type. */
function formatOf(said: InputFormat | undefined, contentType: string | undefined): InputFormat {
  const media = (contentType ?? "").split(";")[0].trim().toLowerCase();
  const format = said ?? FORMATS[media];
  if (!format)
    throw new ApiError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Send a CSV (Content-Type: text/csv) or JSON Lines file (application/x-ndjson), or a multipart form with it${media ? `, not ${media.slice(0, 100)}` : ""}.`,
    );
  return format;
}

/** The upload: the raw body, or a multipart form's fields (before the file) and its file part, streamed either way. */
async function uploadOf(req: Request, q: { kind?: "address" | "convert"; from?: CodeSystem; column?: string; format?: InputFormat }) {
  const boundary = boundaryOf(req.headers.get("content-type") ?? undefined);
  if (!boundary) return { ...q, format: formatOf(q.format, req.headers.get("content-type") ?? undefined), body: req.body };
  if (!req.body) throw new ApiError("VALIDATION_ERROR", "The form is empty: send the file in its `file` field.");
  const form = await readMultipartUpload(req.body, boundary);
  if (!form.file) throw new ApiError("VALIDATION_ERROR", "The form has no file: send it in a `file` field (after the other fields).");
  const kind = q.kind ?? form.fields.kind;
  if (kind !== undefined && !KINDS.includes(kind)) throw new ApiError("VALIDATION_ERROR", `kind must be address or convert, not "${kind.slice(0, 40)}".`);
  const from = q.from ?? form.fields.from;
  if (from !== undefined && !SYSTEMS.includes(from)) throw new ApiError("VALIDATION_ERROR", `from must be kemendagri or bps, not "${from.slice(0, 40)}".`);
  const said = q.format ?? (form.fields.format === "csv" || form.fields.format === "jsonl" ? form.fields.format : undefined);
  const jsonl = /\.(jsonl|ndjson)$/i.test(form.filename ?? "") || FORMATS[form.type ?? ""] === "jsonl";
  return {
    kind: kind as "address" | "convert" | undefined,
    from: from as CodeSystem | undefined,
    column: q.column ?? (form.fields.column?.trim() || undefined),
    format: said ?? (jsonl ? "jsonl" : "csv"),
    body: form.file,
  };
}

jobRoutes.post(
  "/",
  doc({
    operationId: "createJob",
    tags,
    summary: "Start a bulk job",
    description: `Send a file of up to 1,000,000 rows and 200 MB as the request body (CSV with a header, or JSON Lines), or as the \`file\` field of a multipart/form-data form (fields \`kind\`, \`from\`, \`column\` before it): each row's text (address) or code (convert) is answered as the single endpoints answer it. One call per row: the rows are reserved from your quota and credits when the job is accepted (402 when they cannot cover all of them; nothing is charged), charged as they are done, and what is not used goes back on cancel or failure. A bad file is refused with the line where it went wrong. The file and the result are kept ${RESULT_DAYS} days.`,
    caller: "apiKey",
    input: "query",
    ok: { status: 202, description: "The job, queued", schema: jobResponse },
    errors: ["VALIDATION_ERROR", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "SERVICE_UNAVAILABLE"],
  }),
  uploadGate,
  queryParams(createJobQuery),
  async (c) => {
    const up = await uploadOf(c.req.raw, c.req.valid("query"));
    if (!up.kind) throw new ApiError("VALIDATION_ERROR", "Say the job's kind: `kind=address` or `kind=convert` (in the query or as a form field).");
    if (up.from !== undefined && up.kind !== "convert")
      throw new ApiError("VALIDATION_ERROR", "`from` is for convert jobs (whose codes the file holds); address jobs read any code written in the text.");
    const column = up.column ?? (up.kind === "address" ? "address" : "code");
    const job = await createJob(c.env, c.get("call").principal, { kind: up.kind, from: up.from, format: up.format, column, body: up.body });
    return c.json({ data: jobView(job) }, 202);
  },
);

jobRoutes.get(
  "/",
  doc({
    operationId: "listJobs",
    tags,
    summary: "List your bulk jobs",
    description: "Newest first.",
    caller: "apiKey",
    input: "query",
    ok: { description: "Your jobs", schema: jobListResponse },
  }),
  requireKey,
  queryParams(jobPaging),
  async (c) => {
    const { jobs, meta } = await listJobs(c.env, c.get("call").principal.userId, c.req.valid("query"));
    return c.json({ data: jobs.map((j) => jobView(j)), meta });
  },
);

jobRoutes.get(
  "/:id",
  doc({
    operationId: "getJob",
    tags,
    summary: "A bulk job's state and progress",
    caller: "apiKey",
    parameters: [idParam],
    ok: { description: "The job", schema: jobResponse },
    errors: ["NOT_FOUND"],
  }),
  requireKey,
  async (c) => c.json({ data: jobView(await getJob(c.env, c.get("call").principal.userId, c.req.param("id"))) }),
);

jobRoutes.delete(
  "/:id",
  doc({
    operationId: "cancelJob",
    tags,
    summary: "Cancel a bulk job",
    description: "Chunks not yet done are not processed. Rows already done stay in the result and are charged; the rest of the reservation goes back.",
    caller: "apiKey",
    parameters: [idParam],
    ok: { description: "The job, cancelled", schema: jobResponse },
    errors: ["NOT_FOUND", "JOB_FINISHED"],
  }),
  requireKey,
  async (c) => c.json({ data: jobView(await cancelJob(c.env, c.get("call").principal.userId, c.req.param("id"))) }),
);

jobRoutes.get(
  "/:id/result",
  doc({
    operationId: "getJobResult",
    tags,
    summary: "Download a bulk job's result",
    description: `Streamed, in input order: each row's input columns and its answer. Available once the job is over (done, failed or cancelled: the rows done), for ${RESULT_DAYS} days after the job was made.`,
    caller: "apiKey",
    input: "query",
    parameters: [idParam],
    ok: {
      description: "The result",
      media: { "text/csv": "row, the input's columns, then the answer's", "application/x-ndjson": "one object per row: row, input, answer" },
    },
    errors: ["NOT_FOUND", "JOB_NOT_FINISHED"],
  }),
  requireKey,
  queryParams(jobResultQuery),
  async (c) => {
    const id = c.req.param("id");
    const { format } = c.req.valid("query");
    const body = await jobResult(c.env, c.get("call").principal.userId, id, format);
    return new Response(body, {
      headers: {
        "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${id}.${format === "csv" ? "csv" : "jsonl"}"`,
        "cache-control": "private, no-store",
      },
    });
  },
);
