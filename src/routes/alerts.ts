import { Hono } from "hono";
import { alertSettingsInput, alertsResponse } from "../account/schemas";
import { alertOverview, saveAlertSettings } from "../account/settings";
import { requireUser } from "../gate";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody } from "../http/validate";

/** Mounted at /user/alerts: the signed-in developer's alerts, spend limit and the language of their emails. */
export const alertRoutes = new Hono<BaseEnv>();
const tags = ["Usage"];

alertRoutes.get(
  "/",
  doc({
    operationId: "getAlerts",
    tags,
    summary: "Your alerts and limits",
    description:
      "Your settings (monthly spend limit, low-credits level, language of emails), what this month stands at (calls against the quota, credits spent beyond it against the limit) and the alerts sent: 80% and 100% of the quota, credits below your level, the spend limit reached; each once per month, by email and as the `usage.threshold` webhook event.",
    caller: "bearer",
    ok: { description: "Settings, this month and the alerts sent", schema: alertsResponse },
  }),
  requireUser,
  async (c) => c.json({ data: await alertOverview(c.env, c.get("user").id) }),
);

alertRoutes.put(
  "/",
  doc({
    operationId: "updateAlerts",
    tags,
    summary: "Set your spend limit and alerts",
    description:
      "Changes the fields given (the others stay): `spend_limit` (credits that may be spent beyond the quota per UTC month; past it calls get 402 `SPEND_LIMIT_REACHED`; 0 spends none; null removes it), `low_credits_below` (null: no low-credits alert), `language` (`id` or `en`, for the emails). Applies to the next call.",
    caller: "bearer",
    input: "json",
    ok: { description: "Settings, this month and the alerts sent", schema: alertsResponse },
  }),
  requireUser,
  ...jsonBody(alertSettingsInput),
  async (c) => c.json({ data: await saveAlertSettings(c.env, c.get("user").id, c.req.valid("json")) }),
);
