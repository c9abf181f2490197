/**
 * The account's limits and alerts as the customer sets and reads them (GET/PUT /user/alerts, the
 * portal's usage page): the monthly spend limit, the low-credits level and the language of the
 * account's emails (D1 `account_settings`, read by the account object with the plan), what this
 * month stands at, and the alerts sent (`usage_alerts`, written by alerts.ts).
 */
import { primaryDb } from "../db/client";
import { iso } from "../lib/time";
import type { UsageThresholdData } from "../webhooks/schemas";
import { accountObject, settleLeasesOf } from "./admission";
import { alertsOfUser, findAccountSettings, saveAccountSettings } from "./queries";
import type { AlertSettingsInput } from "./schemas";

const LISTED_ALERTS = 50;

export type AlertOverview = Awaited<ReturnType<typeof alertOverview>>;

export async function alertOverview(env: Env, userId: string) {
  const db = primaryDb(env);
  await settleLeasesOf(env, userId);
  const [settings, now, sent] = await Promise.all([
    findAccountSettings(db, userId),
    (await accountObject(env, userId)).limits({}),
    alertsOfUser(db, userId, LISTED_ALERTS),
  ]);
  return {
    settings: { spend_limit: settings?.spendLimit ?? null, low_credits_below: settings?.lowCreditsBelow ?? null, language: settings?.lang ?? "id" },
    month: now.month,
    used: now.used,
    quota: now.quota,
    spent: now.spent,
    alerts: sent.map((a) => {
      const d = JSON.parse(a.data) as UsageThresholdData;
      return {
        month: a.month,
        kind: a.kind,
        threshold: a.level,
        used: d.used,
        quota: d.quota,
        credits_left: d.credits_left,
        spent: d.spent,
        at: iso(a.createdAt),
        emailed: a.emailedAt !== null,
      };
    }),
  };
}

/** Changes what `input` names (the rest stays); the account object reads them at once. */
export async function saveAlertSettings(env: Env, userId: string, input: AlertSettingsInput): Promise<AlertOverview> {
  const db = primaryDb(env);
  const old = await findAccountSettings(db, userId);
  await saveAccountSettings(db, {
    userId,
    spendLimit: input.spend_limit !== undefined ? input.spend_limit : (old?.spendLimit ?? null),
    lowCreditsBelow: input.low_credits_below !== undefined ? input.low_credits_below : (old?.lowCreditsBelow ?? null),
    lang: input.language ?? old?.lang ?? "id",
    updatedAt: Date.now(),
  });
  await (await accountObject(env, userId)).refresh();
  return alertOverview(env, userId);
}
