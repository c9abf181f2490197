/** @jsxImportSource hono/jsx */
/**
 * Portal page: bulk jobs (issue 37). Choose a file and its column, see the cost (its rows, counted in
 * the browser before anything is sent), start: the file goes as it is to POST /portal/jobs/upload,
 * served by the same service as POST /api/v1/jobs (streamed, scanned, reserved, queued; metered
 * under the key id `portal`). A progress bar follows the job (polling /portal/jobs/:id/status), it
 * can be cancelled, and its result downloaded. The past jobs are listed below. The page's script
 * lives in app.js (assets.ts): the portal's CSP allows no inline script.
 */
import { Hono } from "hono";
import { monthAllowance } from "../account/usage";
import { gate } from "../gate";
import type { InputFormat } from "../jobs/input";
import type { JobRow } from "../jobs/queries";
import { cancelJob, createJob, getJob, jobResult, jobView, listJobs, RESULT_DAYS } from "../jobs/service";
import { ApiError } from "../lib/errors";
import { iso } from "../lib/time";
import { PORTAL_CALLS_KEY } from "./addresses";
import { ListTable } from "./components";
import { lang, type PortalEnv, page, signedIn } from "./context";
import { formatDate, formatNumber, translator } from "./i18n";
import { Layout, type Page, VerifyFirst } from "./layout";

export const jobPages = new Hono<PortalEnv>();

const STATES = ["queued", "running", "done", "failed", "cancelled"] as const;

jobPages.get("/jobs", signedIn, async (c) => {
  const u = c.get("user");
  const [{ jobs }, allowance] = await Promise.all([listJobs(c.env, u.id, { page: 1, per_page: 20 }), monthAllowance(c.env, u.id, u.plan)]);
  return c.html(<JobsPage p={page(c)} jobs={jobs} allowance={allowance} />);
});

/**
 * The file as the request body (the page's script sends it so, with the CSRF token in a header). The
 * gate decides the plan's rate and that quota or credits are left before a byte is read, as for POST /api/v1/jobs.
 */
jobPages.post("/jobs/upload", signedIn, gate({ meter: "upload", body: "upload" }), async (c) => {
  const u = c.get("user");
  const t = translator(lang(c));
  if (!u.emailVerified) throw new ApiError("EMAIL_NOT_VERIFIED", t("jobs_verify"));
  const kind = c.req.query("kind") === "convert" ? "convert" : "address";
  const column = (c.req.query("column") ?? "").trim() || (kind === "address" ? "address" : "code");
  const format: InputFormat = /ndjson|jsonl/.test(c.req.header("content-type") ?? "") ? "jsonl" : "csv";
  const principal = { keyId: PORTAL_CALLS_KEY, userId: u.id, plan: u.plan };
  const job = await createJob(c.env, principal, { kind, format, column, body: c.req.raw.body });
  return c.json({ data: jobView(job) }, 202);
});

jobPages.get("/jobs/:id/status", signedIn, async (c) => c.json({ data: jobView(await getJob(c.env, c.get("user").id, c.req.param("id"))) }));

jobPages.post("/jobs/:id/cancel", signedIn, async (c) => c.json({ data: jobView(await cancelJob(c.env, c.get("user").id, c.req.param("id"))) }));

jobPages.get("/jobs/:id/result", signedIn, async (c) => {
  const id = c.req.param("id");
  const body = await jobResult(c.env, c.get("user").id, id, "csv");
  return new Response(body, {
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${id}.csv"`, "cache-control": "private, no-store" },
  });
});

// ---------------------------------------------------------------- views

type Allowance = Awaited<ReturnType<typeof monthAllowance>>;

function JobsPage(props: { p: Page; jobs: JobRow[]; allowance: Allowance }) {
  const { p, allowance: a } = props;
  const verified = p.user?.emailVerified ?? false;
  const labels = {
    cost: p.t("jobs_cost"),
    over: p.t("jobs_over"),
    counting: p.t("jobs_counting"),
    progress: p.t("jobs_progress"),
    left: p.t("jobs_left"),
    // Not `failed`: that key is the state's label below (a refusal read "Failed <message>").
    not_started: p.t("jobs_failed_to_start"),
    ...Object.fromEntries(STATES.map((s) => [s, p.t(`jobs_state_${s}`)])),
  };
  return (
    <Layout p={p} title={p.t("jobs_title")}>
      <h1>{p.t("jobs_title")}</h1>
      {verified ? null : <VerifyFirst p={p} email={p.user?.email ?? ""} />}
      <div class="card" data-jobs data-csrf={p.csrf} data-labels={JSON.stringify(labels)} data-available={a.available}>
        <p class="muted">{p.t("jobs_intro", { days: RESULT_DAYS })}</p>
        <p data-testid="job-allowance">
          {p.t("jobs_allowance", {
            available: formatNumber(p.lang, a.available),
            free: formatNumber(p.lang, a.free),
            quota: formatNumber(p.lang, a.quota),
            credits: formatNumber(p.lang, a.credits),
          })}{" "}
          <a href="/portal/billing">{p.t("jobs_more_calls")}</a>
        </p>
        <label for="job-file">{p.t("jobs_file")}</label>
        <input id="job-file" type="file" accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson" aria-describedby="job-file-hint" disabled={!verified} />
        <p class="hint" id="job-file-hint">
          {p.t("jobs_file_hint")}
        </p>
        <label for="job-kind">{p.t("jobs_kind")}</label>
        <select id="job-kind" disabled={!verified}>
          <option value="address">{p.t("jobs_kind_address")}</option>
          <option value="convert">{p.t("jobs_kind_convert")}</option>
        </select>
        <label for="job-column">{p.t("jobs_column")}</label>
        <input id="job-column" type="text" value="address" aria-describedby="job-column-hint" disabled={!verified} />
        <p class="hint" id="job-column-hint">
          {p.t("jobs_column_hint")}
        </p>
        <p data-testid="job-cost" id="job-cost" aria-live="polite" />
        <button type="button" id="job-start" data-testid="job-start" disabled>
          {p.t("jobs_start")}
        </button>
        <div id="job-error" class="notice err mt" role="alert" data-testid="job-error" hidden />
        <div id="job-run" class="mt" hidden>
          <p id="job-status" data-testid="job-status" aria-live="polite" />
          <progress id="job-progress" max="1" value="0" data-testid="job-progress" aria-label={p.t("jobs_progress_label")} />
          <p>
            <button type="button" class="secondary" id="job-cancel" data-testid="job-cancel">
              {p.t("jobs_cancel")}
            </button>{" "}
            <a id="job-download" data-testid="job-download" class="button" hidden href="/portal/jobs">
              {p.t("jobs_download")}
            </a>
          </p>
        </div>
      </div>
      <div class="card" id="job-list-card">
        <h2>{p.t("jobs_past")}</h2>
        <ListTable
          rows={props.jobs}
          empty={p.t("jobs_none")}
          testid="job-list"
          wrap
          columns={[
            { label: p.t("col_job"), cell: (j) => <code>{j.id}</code> },
            { label: p.t("jobs_kind"), cell: (j) => p.t(`jobs_kind_${j.kind}`) },
            { label: p.t("col_state"), cell: (j) => p.t(`jobs_state_${j.state}`) },
            {
              label: p.t("col_rows"),
              num: true,
              cell: (j) => `${formatNumber(p.lang, j.rowsDone)} / ${formatNumber(p.lang, j.rowsTotal)}`,
            },
            { label: p.t("col_created"), cell: (j) => formatDate(p.lang, iso(j.createdAt)) },
            {
              label: p.t("col_result"),
              cell: (j) => (jobView(j).result ? <a href={`/portal/jobs/${j.id}/result`}>{p.t("jobs_download")}</a> : <span class="muted">–</span>),
            },
          ]}
        />
      </div>
    </Layout>
  );
}
