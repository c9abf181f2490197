/** @jsxImportSource hono/jsx */
/**
 * Portal page: the request log (GET /user/requests in a page), with the same filters: a request id
 * pasted from an error answer finds that call and shows all it recorded; key, status, route and a
 * time range in WIB narrow the list; older calls page by cursor.
 */
import { Hono } from "hono";
import { listRequests } from "../account/requests";
import { requestLogQuery } from "../account/schemas";
import { listKeys } from "../keys/service";
import { issuesToDetails } from "../lib/errors";
import { ListTable } from "./components";
import { lang, type PortalEnv, page, signedIn } from "./context";
import { errorText, formatNumber, type Lang } from "./i18n";
import { Layout, type Notice, NoticeBox, type Page } from "./layout";

export const requestPages = new Hono<PortalEnv>();

const PAGE_SIZE = 50;
const FILTERS = ["request_id", "key", "status", "route", "from", "to"] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

/** A `datetime-local` field's value (no zone) read as WIB, as the page says. */
const wib = (v: string | undefined) => (v && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v) ? `${v}:00+07:00` : v);

type Listed = Awaited<ReturnType<typeof listRequests>>;

requestPages.get("/requests", signedIn, async (c) => {
  const u = c.get("user");
  const filters: Filters = {};
  for (const f of FILTERS) {
    const v = c.req.query(f)?.trim();
    if (v) filters[f] = v;
  }
  const cursor = c.req.query("cursor")?.trim() || undefined;
  const parsed = requestLogQuery.safeParse({ ...filters, from: wib(filters.from), to: wib(filters.to), cursor, limit: PAGE_SIZE });
  const keys = await listKeys(c.env, u.id);
  let listed: Listed | null = null;
  let notice: Notice = null;
  if (parsed.success) listed = await listRequests(c.env, u.id, parsed.data, (p) => c.executionCtx.waitUntil(p));
  else
    notice = {
      kind: "err",
      text: errorText(lang(c), "VALIDATION_ERROR", "Invalid filters"),
      details: issuesToDetails(parsed.error.issues).map((d) => `${d.path}: ${d.message}`),
    };
  return c.html(
    <RequestsPage
      p={page(c)}
      notice={notice}
      filters={filters}
      keys={keys.map((k) => ({ id: k.id, name: k.name }))}
      listed={listed}
      keptDays={listed?.kept_days}
    />,
    parsed.success ? 200 : 400,
  );
});

// ---------------------------------------------------------------- views

const fullTime = (lang: Lang, iso: string) =>
  `${new Date(iso).toLocaleString(lang === "en" ? "en-GB" : "id-ID", { dateStyle: "medium", timeStyle: "medium", timeZone: "Asia/Jakarta" })}`;

const statusClass = (s: number) => (s < 300 ? "ok" : s >= 500 ? "err" : "warn");

function query(filters: Filters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filters, ...extra })) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

function RequestsPage(props: { p: Page; notice: Notice; filters: Filters; keys: { id: string; name: string }[]; listed: Listed | null; keptDays?: number }) {
  const { p, filters, listed } = props;
  const single = filters.request_id && listed?.items.length === 1 ? listed.items[0] : null;
  const statuses: [string, string][] = [
    ["2xx", p.t("requests_status_ok")],
    ["4xx", p.t("requests_status_client")],
    ["402", "402"],
    ["429", "429"],
    ["5xx", p.t("requests_status_server")],
  ];
  return (
    <Layout p={p} title={p.t("requests_title")}>
      <h1>{p.t("requests_title")}</h1>
      <p>{p.t("requests_intro", { days: props.keptDays ?? 7 })}</p>
      <p class="hint">{p.t("requests_lag")}</p>
      <NoticeBox n={props.notice} />
      <form method="get" action="/portal/requests" class="card filters" aria-label={p.t("requests_filter")}>
        <div class="filter-grid">
          <div class="wide">
            <label for="request_id">{p.t("requests_request_id")}</label>
            <input
              id="request_id"
              name="request_id"
              type="search"
              value={filters.request_id ?? ""}
              placeholder="01a24501-ce75-7bd3-…"
              autocomplete="off"
              spellcheck={false}
            />
          </div>
          <div>
            <label for="key">{p.t("requests_key")}</label>
            <select id="key" name="key">
              <option value="">{p.t("requests_any")}</option>
              {props.keys.map((k) => (
                <option value={k.id} selected={filters.key === k.id}>
                  {k.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="status">{p.t("requests_status")}</label>
            <select id="status" name="status">
              <option value="">{p.t("requests_any")}</option>
              {statuses.map(([v, label]) => (
                <option value={v} selected={filters.status === v}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="route">{p.t("requests_route")}</label>
            <input id="route" name="route" type="text" value={filters.route ?? ""} placeholder="/wilayah/search" aria-describedby="route-hint" />
            <p class="hint" id="route-hint">
              {p.t("requests_route_hint")}
            </p>
          </div>
          <div>
            <label for="from">{p.t("requests_from")}</label>
            <input id="from" name="from" type="datetime-local" value={filters.from ?? ""} />
          </div>
          <div>
            <label for="to">{p.t("requests_to")}</label>
            <input id="to" name="to" type="datetime-local" value={filters.to ?? ""} />
          </div>
        </div>
        <div class="row mt">
          <button type="submit">{p.t("requests_filter")}</button>
          <a href="/portal/requests" class="button secondary">
            {p.t("requests_clear")}
          </a>
        </div>
      </form>

      {listed === null ? null : single ? (
        <RequestDetail p={p} r={single} />
      ) : listed.items.length === 0 ? (
        <p class="muted" data-testid="requests-none">
          {p.t("requests_none")}
        </p>
      ) : (
        <div class="card">
          <ListTable
            rows={listed.items}
            testid="requests"
            class="requests"
            wrap
            columns={[
              { label: p.t("requests_when"), cell: (r) => fullTime(p.lang, r.at) },
              { label: p.t("requests_key"), cell: (r) => r.key.name ?? r.key.id },
              {
                label: p.t("requests_route"),
                cell: (r) => (
                  <>
                    <span class="muted">{r.surface}</span> <code>{r.route}</code>
                    {r.count > 1 ? <div class="muted">{p.t("requests_tiles", { n: formatNumber(p.lang, r.count) })}</div> : null}
                  </>
                ),
              },
              {
                label: p.t("requests_status"),
                cell: (r) => (
                  <>
                    <span class={`badge ${statusClass(r.status)}`}>{r.status}</span> {r.error_code ? <code>{r.error_code}</code> : null}
                  </>
                ),
              },
              { label: p.t("requests_latency"), num: true, cell: (r) => `${formatNumber(p.lang, r.latency_ms)} ms` },
              {
                label: p.t("requests_request_id"),
                cell: (r) => (
                  <a href={`/portal/requests${query({ request_id: r.request_id })}`} class="reqid">
                    <code>{r.request_id}</code>
                  </a>
                ),
              },
            ]}
          />
          {listed.next_cursor ? (
            <div class="pager">
              <span></span>
              <a href={`/portal/requests${query(props.filters, { cursor: listed.next_cursor })}`} data-testid="requests-older">
                {p.t("requests_older")}
              </a>
            </div>
          ) : null}
        </div>
      )}
    </Layout>
  );
}

function RequestDetail(props: { p: Page; r: Listed["items"][number] }) {
  const { p, r } = props;
  const row = (label: string, value: unknown) => (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
  return (
    <div class="card" data-testid="request-detail">
      <h2>
        <span class={`badge ${statusClass(r.status)}`}>{r.status}</span> {r.error_code ? <code>{r.error_code}</code> : null} <code>{r.route}</code>
      </h2>
      <dl class="facts">
        {row(p.t("requests_request_id"), <code>{r.request_id}</code>)}
        {row(p.t("requests_when"), `${fullTime(p.lang, r.at)} WIB`)}
        {row(p.t("requests_key"), `${r.key.name ?? r.key.id}${r.key.prefix ? ` (${r.key.prefix}…)` : ""}`)}
        {row(p.t("requests_surface"), `${r.surface} · ${r.method}`)}
        {row(p.t("requests_latency"), `${formatNumber(p.lang, r.latency_ms)} ms`)}
        {r.count > 1 ? row("", p.t("requests_tiles", { n: formatNumber(p.lang, r.count) })) : null}
        {row(p.t("requests_version"), r.data_version ?? "–")}
        {row(p.t("requests_ip"), r.ip ?? "–")}
      </dl>
    </div>
  );
}
