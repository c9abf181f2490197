/** @jsxImportSource hono/jsx */
/** Portal page: usage per month (total, per day as a server-drawn chart, per key, per endpoint), and the account's alerts and limits. */
import { Hono } from "hono";
import type { z } from "zod";
import type { monthUsageSchema } from "../account/schemas";
import { type AlertOverview, alertOverview, saveAlertSettings } from "../account/settings";
import { currentMonth, monthUsage } from "../account/usage";
import { ApiError } from "../lib/errors";
import { PORTAL_CALLS_KEY } from "./addresses";
import { AlertsCard, alertsForm } from "./alerts";
import { ListTable } from "./components";
import { errorNotice, flash, form, type PortalContext, type PortalEnv, page, type SignedInEnv, signedIn } from "./context";
import { formatNumber, type Lang } from "./i18n";
import { Layout, type Notice, NoticeBox, type Page } from "./layout";

export type UsageView = z.infer<typeof monthUsageSchema>;

export const usagePages = new Hono<PortalEnv>();

/** This month and the five before it. */
function recentMonths(now = new Date()): string[] {
  return Array.from({ length: 6 }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7));
}

async function usagePage(c: PortalContext<SignedInEnv>, notice: Notice, alertsNotice: Notice = null, status: 200 | 400 = 200) {
  const u = c.get("user");
  const asked = c.req.query("month");
  const month = asked && /^\d{4}-(0[1-9]|1[0-2])$/.test(asked) ? asked : currentMonth();
  const months = recentMonths();
  if (!months.includes(month)) months.push(month);
  const [usage, alerts] = await Promise.all([monthUsage(c.env, u.id, month), alertOverview(c.env, u.id)]);
  return c.html(<UsagePage p={page(c)} usage={usage} months={months} alerts={alerts} notice={notice} alertsNotice={alertsNotice} />, status);
}

usagePages.get("/usage", signedIn, (c) => usagePage(c, flash(c)));

usagePages.post("/usage/alerts", signedIn, async (c) => {
  try {
    await saveAlertSettings(c.env, c.get("user").id, await form(c, alertsForm));
    return c.redirect("/portal/usage?msg=alerts_saved#alerts", 303);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 400) throw e;
    return usagePage(c, null, errorNotice(c, e), 400);
  }
});

// ---------------------------------------------------------------- views

/** Calls per day of the month as bars, drawn here (SVG, presentation attributes only). */
export function DayChart(props: { lang: Lang; usage: UsageView; label: string }) {
  const [y, m] = props.usage.month.split("-").map(Number);
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const counts = new Map(props.usage.by_day.map((d) => [Number(d.day.slice(8, 10)), d.count]));
  const max = Math.max(1, ...counts.values());
  const W = 640;
  const H = 200;
  // Room for the axis's top label at the phone size (portal CSS: .day-chart text, 20 units under
  // 600 px, about 12 units a character): "4.017" needs more than "0".
  const maxLabel = formatNumber(props.lang, max);
  const left = Math.max(56, 12 * maxLabel.length + 14);
  const bottom = 30;
  const top = 10;
  const plotH = H - bottom - top;
  const bw = (W - left - 6) / days;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label} class="day-chart">
      <line x1={left} y1={top + plotH} x2={W} y2={top + plotH} stroke="#b9c2cc" />
      <text x={left - 6} y={top + 8} text-anchor="end" font-size="11" fill="#5b6673">
        {maxLabel}
      </text>
      <text x={left - 6} y={top + plotH} text-anchor="end" font-size="11" fill="#5b6673">
        0
      </text>
      {Array.from({ length: days }, (_, i) => {
        const day = i + 1;
        const c = counts.get(day) ?? 0;
        const h = Math.round((c / max) * plotH);
        const x = left + 3 + i * bw;
        return (
          <g>
            <rect x={x.toFixed(1)} y={top + plotH - h} width={(bw * 0.75).toFixed(1)} height={h} fill="#0b6e4f" rx="1.5">
              <title>{`${props.usage.month}-${String(day).padStart(2, "0")}: ${formatNumber(props.lang, c)}`}</title>
            </rect>
            {day === 1 || day % 5 === 0 ? (
              <text x={(x + bw * 0.375).toFixed(1)} y={H - 4} text-anchor="middle" font-size="11" fill="#5b6673">
                {day}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

export function UsagePage(props: { p: Page; usage: UsageView; months: string[]; alerts: AlertOverview; notice: Notice; alertsNotice: Notice }) {
  const { p, usage } = props;
  return (
    <Layout p={p} title={p.t("usage_title")}>
      <h1>{p.t("usage_title")}</h1>
      <NoticeBox n={props.notice} />
      <nav class="tabs" aria-label={p.t("usage_month")}>
        {props.months.map((m) => (
          <a href={`/portal/usage?month=${m}`} aria-current={m === usage.month ? "page" : undefined}>
            {m}
          </a>
        ))}
      </nav>
      <div class="grid">
        <div class="card">
          <div class="muted">{p.t("usage_total")}</div>
          <div class="big" data-testid="usage-total">
            {formatNumber(p.lang, usage.total)}
          </div>
          <div class="muted">{usage.month}</div>
        </div>
      </div>
      <div class="card chart">
        <h2>{p.t("usage_by_day")}</h2>
        <p class="hint" data-testid="usage-days-utc">
          {p.t("usage_days_utc")}
        </p>
        <DayChart lang={p.lang} usage={usage} label={p.t("usage_by_day")} />
      </div>
      {usage.total === 0 ? (
        <p class="muted">{p.t("usage_none")}</p>
      ) : (
        <div class="grid">
          <div class="card">
            <h2>{p.t("usage_by_key")}</h2>
            <ListTable
              rows={usage.by_key}
              headless
              flat
              columns={[
                {
                  label: "",
                  cell: (k) => (
                    <>
                      {k.key_id === PORTAL_CALLS_KEY ? p.t("usage_portal") : (k.name ?? k.key_id)} <span class="muted">{k.prefix ? `${k.prefix}…` : ""}</span>
                    </>
                  ),
                },
                { label: "", num: true, cell: (k) => formatNumber(p.lang, k.count) },
              ]}
            />
          </div>
          <div class="card">
            <h2>{p.t("usage_by_endpoint")}</h2>
            <ListTable
              rows={usage.by_endpoint}
              headless
              flat
              columns={[
                { label: "", cell: (e) => <code>{e.endpoint}</code> },
                { label: "", num: true, cell: (e) => formatNumber(p.lang, e.count) },
              ]}
            />
          </div>
        </div>
      )}
      <AlertsCard p={p} a={props.alerts} notice={props.alertsNotice} />
    </Layout>
  );
}
