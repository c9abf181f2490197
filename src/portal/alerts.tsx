/** @jsxImportSource hono/jsx */
/**
 * The usage page's alerts and limits (GET/PUT /user/alerts in a form, posted to /portal/usage/alerts):
 * this month against the quota and the spend limit, the settings, and the alerts sent.
 */
import { z } from "zod";
import { alertSettingsInput } from "../account/schemas";
import type { AlertOverview } from "../account/settings";
import { formInteger } from "./context";
import { formatDate, formatNumber } from "./i18n";
import { Csrf, type Notice, NoticeBox, type Page } from "./layout";

/** An empty number field is "none" (null); digits are the API's integer. */
const numberOrNone = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : formInteger(v));

/** The form as the API takes it: its three fields (the CSRF token and the rest left out). */
export const alertsForm = z.preprocess((body) => {
  const b = body as Record<string, unknown>;
  return { spend_limit: numberOrNone(b.spend_limit), low_credits_below: numberOrNone(b.low_credits_below), language: b.language };
}, alertSettingsInput);

export function AlertsCard(props: { p: Page; a: AlertOverview; notice: Notice }) {
  const { p, a } = props;
  const s = a.settings;
  const pct = a.quota > 0 ? Math.floor((a.used * 100) / a.quota) : 0;
  const text = (x: AlertOverview["alerts"][number]) =>
    x.kind === "quota"
      ? p.t("alert_quota", { threshold: x.threshold, used: formatNumber(p.lang, x.used), quota: formatNumber(p.lang, x.quota) })
      : x.kind === "credits"
        ? p.t("alert_credits", { threshold: formatNumber(p.lang, x.threshold), left: formatNumber(p.lang, x.credits_left ?? 0) })
        : p.t("alert_spend_limit", { threshold: formatNumber(p.lang, x.threshold) });
  return (
    <section class="card" id="alerts" aria-labelledby="alerts-title">
      <h2 id="alerts-title">{p.t("alerts_title")}</h2>
      <p class="hint">{p.t("alerts_intro")}</p>
      <NoticeBox n={props.notice} />
      <div class="grid mt">
        <div>
          <div class="muted">{p.t("alerts_month", { month: a.month })}</div>
          <div data-testid="alerts-quota">{p.t("alerts_quota_used", { used: formatNumber(p.lang, a.used), quota: formatNumber(p.lang, a.quota), pct })}</div>
          <progress max={100} value={Math.min(100, pct)} aria-label={p.t("alerts_quota_used", { used: a.used, quota: a.quota, pct })}></progress>
          <div class="muted" data-testid="alerts-spent">
            {s.spend_limit === null
              ? p.t("alerts_spent", { spent: formatNumber(p.lang, a.spent) })
              : p.t("alerts_spent_of", { spent: formatNumber(p.lang, a.spent), limit: formatNumber(p.lang, s.spend_limit) })}
          </div>
        </div>
        <form method="post" action="/portal/usage/alerts" data-testid="alerts-form">
          <Csrf p={p} />
          <label for="spend_limit">{p.t("alerts_spend_limit")}</label>
          <input id="spend_limit" name="spend_limit" type="number" min={0} step={1} value={s.spend_limit ?? ""} aria-describedby="spend-limit-hint" />
          <p class="hint" id="spend-limit-hint">
            {p.t("alerts_spend_limit_hint")}
          </p>
          <label for="low_credits_below">{p.t("alerts_low_credits")}</label>
          <input
            id="low_credits_below"
            name="low_credits_below"
            type="number"
            min={1}
            step={1}
            value={s.low_credits_below ?? ""}
            aria-describedby="low-credits-hint"
          />
          <p class="hint" id="low-credits-hint">
            {p.t("alerts_low_credits_hint")}
          </p>
          <label for="language">{p.t("alerts_language")}</label>
          <select id="language" name="language">
            <option value="id" selected={s.language === "id"}>
              {p.t("lang_name_id")}
            </option>
            <option value="en" selected={s.language === "en"}>
              {p.t("lang_name_en")}
            </option>
          </select>
          <button type="submit" class="mt">
            {p.t("alerts_save")}
          </button>
        </form>
      </div>
      <h3>{p.t("alerts_sent")}</h3>
      {a.alerts.length === 0 ? (
        <p class="muted">{p.t("alerts_none")}</p>
      ) : (
        <ul class="alerts" data-testid="alerts-sent">
          {a.alerts.map((x) => (
            <li>
              <span class={`badge ${x.kind === "quota" && x.threshold < 100 ? "warn" : "err"}`}>{x.month}</span> {text(x)}{" "}
              <span class="muted">
                · {formatDate(p.lang, x.at)}
                {x.emailed ? ` · ${p.t("alerts_emailed")}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
