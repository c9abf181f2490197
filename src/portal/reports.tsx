/** @jsxImportSource hono/jsx */
/**
 * Portal pages for reports of wrong facts (docs/api.md, "Reporting a wrong fact"): the form every
 * "Report a problem" link opens (/portal/report?region=ID: the landing page's search results, the
 * address results, the map's region card), the signed-in user's reports with their answers, and the
 * admins' queue with its decisions. Each calls the same service the REST routes call (same rules,
 * throttles, audit and emails); a portal report is filed under the key id `portal`.
 */
import { Hono } from "hono";
import { z } from "zod";
import { regionReads } from "../db/reads";
import { PORTAL_KEY_ID } from "../gate";
import { ApiError } from "../lib/errors";
import { REPORT_FIELDS, REPORT_STATUSES, type ReportField, reportInput, reviewInput } from "../reports/schemas";
import { type AdminReportView, fileReport, listOwnReports, type ReportView, reportQueuePage, reviewReport } from "../reports/service";
import { getRegion } from "../wilayah/regions/service";
import { ListTable } from "./components";
import { adminOnly, errorNotice, flash, origin, type PortalContext, type PortalEnv, page, type SignedInEnv, signedIn } from "./context";
import { formatDate } from "./i18n";
import { Csrf, Layout, type Notice, NoticeBox, type Page, Pager, VerifyFirst } from "./layout";

export const reportPages = new Hono<PortalEnv>();

/** The link every region the portal and the site show carries. */
export const reportHref = (regionId: string) => `/portal/report?region=${encodeURIComponent(regionId)}`;

type Region = { id: string; name: string; level: string };
type Draft = { field?: string; value?: string; url?: string; regulation?: string; text?: string };

const pageNumber = (raw: string | undefined) => {
  const n = Number(raw ?? "1");
  return Number.isInteger(n) && n > 0 ? n : 1;
};

async function regionFor(env: Env, raw: string): Promise<Region> {
  const { data } = await getRegion(regionReads(env), raw.slice(0, 40));
  return { id: data.id, name: data.name, level: data.level };
}

function reportForm(c: PortalContext<SignedInEnv>, region: Region, notice: Notice, draft: Draft, status: 200 | 400 | 403 | 429 = 200) {
  return c.html(<ReportPage p={page(c)} region={region} notice={notice} draft={draft} />, status);
}

reportPages.get("/report", signedIn, async (c) => {
  const region = await regionFor(c.env, c.req.query("region") ?? "");
  const field = c.req.query("field");
  return reportForm(c, region, null, { field: (REPORT_FIELDS as readonly string[]).includes(field ?? "") ? field : undefined });
});

reportPages.post("/report", signedIn, async (c) => {
  const u = c.get("user");
  const body = await c.req.parseBody();
  const text = (k: string) => (typeof body[k] === "string" ? (body[k] as string).trim() : "");
  const region = await regionFor(c.env, text("region"));
  const draft: Draft = {
    field: text("field"),
    value: text("value"),
    url: text("url"),
    regulation: text("regulation"),
    text: text("text"),
  };
  if (!u.emailVerified) return reportForm(c, region, { kind: "err", text: page(c).t("addresses_verify") }, draft, 403);
  // The form's fields as the API's body (an empty field is not given), judged by the API's own schema.
  // No `email`: a decision is mailed only to the account's verified address, which the page names.
  const parsed = reportInput.safeParse({
    field: draft.field,
    value: draft.value,
    evidence: { url: draft.url || undefined, regulation: draft.regulation || undefined, text: draft.text || undefined },
  });
  try {
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
      throw new ApiError("VALIDATION_ERROR", `Invalid report: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, { details });
    }
    await fileReport(c.env, region.id, parsed.data, { ...origin(c), userId: u.id, keyId: PORTAL_KEY_ID });
  } catch (e) {
    if (e instanceof ApiError && (e.status === 400 || e.status === 429)) return reportForm(c, region, errorNotice(c, e), draft, e.status);
    throw e;
  }
  return c.redirect("/portal/reports?msg=report_filed", 303);
});

reportPages.get("/reports", signedIn, async (c) => {
  const reports = await listOwnReports(c.env, c.get("user").id, { page: pageNumber(c.req.query("page")), per_page: 20 });
  return c.html(<OwnReportsPage p={page(c)} notice={flash(c)} reports={reports.items} meta={reports.meta} />);
});

// ---------------------------------------------------------------- admins

const queueFilter = z.object({
  status: z.enum(REPORT_STATUSES).optional().catch(undefined),
  field: z.enum(REPORT_FIELDS).optional().catch(undefined),
  region_id: z.string().max(20).optional().catch(undefined),
});
type QueueFilter = z.infer<typeof queueFilter>;

async function queuePage(c: PortalContext<SignedInEnv>, notice: Notice, status: 200 | 400 | 404 | 409 = 200) {
  const raw = queueFilter.parse({
    status: c.req.query("status") ?? "open",
    field: c.req.query("field") || undefined,
    region_id: c.req.query("region_id") || undefined,
  });
  const filter: QueueFilter = { ...raw, status: c.req.query("status") === "" ? undefined : raw.status };
  const q = await reportQueuePage(c.env, filter, { page: pageNumber(c.req.query("page")), per_page: 20 });
  return c.html(<QueuePage p={page(c)} notice={notice} reports={q.items} meta={q.meta} filter={filter} />, status);
}

reportPages.get("/admin/reports", signedIn, adminOnly, (c) => queuePage(c, flash(c)));

reportPages.post("/admin/reports/:id", signedIn, adminOnly, async (c) => {
  const body = await c.req.parseBody();
  const text = (k: string) => (typeof body[k] === "string" ? (body[k] as string).trim() : "");
  const decision = text("status");
  const parsed = reviewInput.safeParse({
    status: decision,
    answer: text("answer") || undefined,
    ...(decision === "accepted" ? { basis: text("basis"), value: text("value") || undefined } : {}),
    ...(decision === "duplicate" ? { duplicate_of: text("duplicate_of") } : {}),
  });
  try {
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
      throw new ApiError("VALIDATION_ERROR", `Invalid decision: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, { details });
    }
    await reviewReport(c.env, c.req.param("id"), parsed.data, { id: c.get("user").id, ...origin(c) });
  } catch (e) {
    if (e instanceof ApiError && (e.status === 400 || e.status === 404 || e.status === 409)) return queuePage(c, errorNotice(c, e), e.status);
    throw e;
  }
  return c.redirect("/portal/admin/reports?msg=report_decided", 303);
});

// ---------------------------------------------------------------- views

const fieldLabel = (p: Page, f: string) => p.t(`report_field_${f as ReportField}`);

function ReportPage(props: { p: Page; region: Region; notice: Notice; draft: Draft }) {
  const { p, region, draft } = props;
  const verified = p.user?.emailVerified ?? false;
  return (
    <Layout p={p} title={p.t("report_title")}>
      <h1>{p.t("report_title")}</h1>
      <NoticeBox n={props.notice} />
      {verified ? null : <VerifyFirst p={p} email={p.user?.email ?? ""} />}
      <div class="card">
        <p data-testid="report-region">{p.t("report_intro", { region: `${region.name} (${region.id}, ${region.level})` })}</p>
        <form method="post" action="/portal/report" class="stack" data-testid="report-form">
          <Csrf p={p} />
          <input type="hidden" name="region" value={region.id} />
          <div>
            <label for="report-field">{p.t("report_field")}</label>
            <select id="report-field" name="field" required>
              {REPORT_FIELDS.map((f) => (
                <option value={f} selected={draft.field === f}>
                  {fieldLabel(p, f)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="report-value">{p.t("report_value")}</label>
            <input id="report-value" name="value" type="text" required maxlength={500} value={draft.value ?? ""} aria-describedby="report-value-hint" />
            <p class="hint" id="report-value-hint">
              {p.t("report_value_hint")}
            </p>
          </div>
          <fieldset>
            <legend>{p.t("report_evidence")}</legend>
            <label for="report-url">{p.t("report_evidence_url")}</label>
            <input id="report-url" name="url" type="url" maxlength={2000} value={draft.url ?? ""} placeholder="https://" />
            <label for="report-regulation">{p.t("report_evidence_regulation")}</label>
            <input id="report-regulation" name="regulation" type="text" maxlength={200} value={draft.regulation ?? ""} />
            <label for="report-text">{p.t("report_evidence_text")}</label>
            <textarea id="report-text" name="text" rows={4} maxlength={2000}>
              {draft.text ?? ""}
            </textarea>
          </fieldset>
          {verified ? (
            <p class="hint" data-testid="report-email">
              {p.t("report_email_to", { email: p.user?.email ?? "" })}
            </p>
          ) : null}
          <button type="submit" disabled={!verified} data-testid="report-submit">
            {p.t("report_submit")}
          </button>
        </form>
      </div>
    </Layout>
  );
}

function StatusBadge(props: { p: Page; status: ReportView["status"] }) {
  const kind = props.status === "accepted" ? "ok" : props.status === "open" ? "warn" : "err";
  return <span class={`badge ${kind}`}>{props.p.t(`report_status_${props.status}`)}</span>;
}

function OwnReportsPage(props: { p: Page; notice: Notice; reports: ReportView[]; meta: { page: number; total_pages: number } }) {
  const { p } = props;
  return (
    <Layout p={p} title={p.t("reports_title")}>
      <h1>{p.t("reports_title")}</h1>
      <NoticeBox n={props.notice} />
      <div class="card">
        <ListTable
          rows={props.reports}
          empty={p.t("reports_empty")}
          testid="own-reports"
          wrap
          rowAttrs={() => ({ "data-testid": "own-report" })}
          columns={[
            { label: p.t("col_region"), cell: (r) => <code>{r.region_id}</code> },
            { label: p.t("col_field"), cell: (r) => fieldLabel(p, r.field) },
            { label: p.t("col_value"), cell: (r) => r.value },
            { label: p.t("status"), cell: (r) => <StatusBadge p={p} status={r.status} /> },
            { label: p.t("col_answer"), cell: (r) => r.answer ?? <span class="muted">–</span> },
            { label: p.t("col_filed"), cell: (r) => formatDate(p.lang, r.created_at) },
          ]}
        />
        <Pager p={p} meta={props.meta} href={(n) => `/portal/reports?page=${n}`} />
      </div>
    </Layout>
  );
}

function QueuePage(props: { p: Page; notice: Notice; reports: AdminReportView[]; meta: { page: number; total_pages: number }; filter: QueueFilter }) {
  const { p, filter } = props;
  const query = (n: number) =>
    `/portal/admin/reports?page=${n}&status=${filter.status ?? ""}${filter.field ? `&field=${filter.field}` : ""}${filter.region_id ? `&region_id=${encodeURIComponent(filter.region_id)}` : ""}`;
  return (
    <Layout p={p} title={p.t("admin_reports_title")}>
      <a class="back" href="/portal/admin">
        ← {p.t("admin_title")}
      </a>
      <h1>{p.t("admin_reports_title")}</h1>
      <NoticeBox n={props.notice} />
      <p class="muted">{p.t("admin_reports_intro")}</p>
      <form method="get" action="/portal/admin/reports" class="row card">
        <div>
          <label for="q-status">{p.t("status")}</label>
          <select id="q-status" name="status">
            <option value="" selected={!filter.status}>
              {p.t("filter_all")}
            </option>
            {REPORT_STATUSES.map((s) => (
              <option value={s} selected={filter.status === s}>
                {p.t(`report_status_${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="q-field">{p.t("col_field")}</label>
          <select id="q-field" name="field">
            <option value="" selected={!filter.field}>
              {p.t("filter_all")}
            </option>
            {REPORT_FIELDS.map((f) => (
              <option value={f} selected={filter.field === f}>
                {fieldLabel(p, f)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="q-region">{p.t("col_region")}</label>
          <input id="q-region" name="region_id" type="search" maxlength={20} value={filter.region_id ?? ""} />
        </div>
        <button type="submit">{p.t("search")}</button>
      </form>
      {props.reports.length === 0 ? <p class="muted">{p.t("admin_reports_none")}</p> : null}
      {props.reports.map((r) => (
        <div class="card" data-testid="queue-report" data-report-id={r.id}>
          <h2>
            <code>{r.region_id}</code> · {fieldLabel(p, r.field)} · <StatusBadge p={p} status={r.status} />
          </h2>
          <p>
            <strong>{p.t("col_value")}:</strong> {r.value}
          </p>
          <p>
            <strong>{p.t("admin_reports_evidence")}:</strong>{" "}
            {r.evidence.url ? (
              <a href={r.evidence.url} rel="noopener noreferrer nofollow" target="_blank">
                {r.evidence.url}
              </a>
            ) : null}{" "}
            {r.evidence.regulation ?? ""} {r.evidence.text ?? ""}
          </p>
          <p class="muted">
            {p.t("admin_reports_by")}: <a href={`/portal/admin/users/${r.user_id}`}>{r.user_id}</a> ({r.key_id}), {formatDate(p.lang, r.created_at)}
            {r.same.length ? ` · ${p.t("admin_reports_same")}: ${r.same.join(", ")}` : ""}
          </p>
          {r.answer ? (
            <p>
              <strong>{p.t("col_answer")}:</strong> {r.answer} {r.basis ? `(${r.basis})` : ""}
            </p>
          ) : null}
          {r.status === "open" ? (
            <form method="post" action={`/portal/admin/reports/${r.id}`} class="stack">
              <Csrf p={p} />
              <div>
                <label for={`d-${r.id}`}>{p.t("admin_decision")}</label>
                <select id={`d-${r.id}`} name="status">
                  <option value="accepted">{p.t("report_status_accepted")}</option>
                  <option value="rejected">{p.t("report_status_rejected")}</option>
                  <option value="duplicate">{p.t("report_status_duplicate")}</option>
                </select>
              </div>
              <div>
                <label for={`a-${r.id}`}>{p.t("report_answer")}</label>
                <textarea id={`a-${r.id}`} name="answer" rows={2} maxlength={2000}></textarea>
              </div>
              <div>
                <label for={`b-${r.id}`}>{p.t("report_basis")}</label>
                <input id={`b-${r.id}`} name="basis" type="text" maxlength={500} />
              </div>
              <div>
                <label for={`v-${r.id}`}>{p.t("report_accept_value")}</label>
                <input id={`v-${r.id}`} name="value" type="text" maxlength={500} placeholder={r.value} />
              </div>
              <div>
                <label for={`u-${r.id}`}>{p.t("report_duplicate_of")}</label>
                <input id={`u-${r.id}`} name="duplicate_of" type="text" maxlength={40} value={r.same[0] ?? ""} />
              </div>
              <button type="submit" data-testid="queue-decide">
                {p.t("admin_decide")}
              </button>
            </form>
          ) : null}
        </div>
      ))}
      <Pager p={p} meta={props.meta} href={query} />
    </Layout>
  );
}
