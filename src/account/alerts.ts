/**
 * Sending an alert that the account object fired (object-alerts.ts: `fire`, then the object's `sendAlerts` alarm):
 * recorded in D1 (`usage_alerts`, once per account, month, kind and level: what the portal and
 * GET /user/alerts list), emailed in the account's language, and announced to the account's
 * webhooks as `usage.threshold`. Safe to repeat: the row is written once, the email is sent until
 * it was handed over once, the webhook event is recorded once.
 */

import { mailerFor } from "../auth/mailer";
import { findUserById } from "../auth/queries";
import { primaryDb } from "../db/client";
import { announceUsageThreshold } from "../webhooks/publisher";
import type { UsageThresholdData } from "../webhooks/schemas";
import { findAccountSettings, markAlertEmailed, recordAlert } from "./queries";
import type { FiredAlert } from "./store";

type Lang = "id" | "en";

/** The portal's address for the messages: DASHBOARD_URL, else PUBLIC_API_URL's /portal; null when the deployment names neither. */
export function portalUrl(env: Env): string | null {
  if (env.DASHBOARD_URL) return env.DASHBOARD_URL.replace(/\/$/, "");
  return env.PUBLIC_API_URL ? `${env.PUBLIC_API_URL.replace(/\/$/, "")}/portal` : null;
}

/** The alert as its webhook event's data (also the row's `data` shape the routes answer with). */
export function alertData(alert: Pick<FiredAlert, "month" | "kind" | "level" | "data">, portal: string | null): UsageThresholdData {
  return {
    month: alert.month,
    kind: alert.kind,
    threshold: alert.level,
    used: alert.data.used,
    quota: alert.data.quota,
    credits_left: alert.kind === "credits" ? (alert.data.balance ?? null) : null,
    spent: alert.kind === "quota" ? null : (alert.data.spent ?? null),
    portal_url: portal,
  };
}

const n = (lang: Lang, x: number) => x.toLocaleString(lang === "en" ? "en-US" : "id-ID");

/** The email of an alert in the account's language. */
export function alertMail(lang: Lang, d: UsageThresholdData): { subject: string; text: string } {
  const usage = d.portal_url ? `${d.portal_url}/usage` : lang === "en" ? "the portal's Usage page" : "halaman Pemakaian di portal";
  const billing = d.portal_url ? `${d.portal_url}/billing` : lang === "en" ? "the portal's Plans & billing page" : "halaman Paket & tagihan di portal";
  const en = lang === "en";
  if (d.kind === "quota" && d.threshold < 100) {
    return en
      ? {
          subject: `Wilayah API: ${d.threshold}% of this month's quota used`,
          text: `Your account has used ${n(lang, d.used)} of the ${n(lang, d.quota)} calls your plan includes in ${d.month} (UTC).\n\nPast 100%, each call spends one credit; without credits, calls are refused with 402 QUOTA_EXCEEDED. To keep calls going, top up credits or choose a larger plan: ${billing}\n\nUsage, alerts and limits: ${usage}`,
        }
      : {
          subject: `Wilayah API: ${d.threshold}% kuota bulan ini terpakai`,
          text: `Akun Anda sudah memakai ${n(lang, d.used)} dari ${n(lang, d.quota)} panggilan yang termasuk dalam paket Anda pada ${d.month} (UTC).\n\nSetelah 100%, setiap panggilan memakai satu kredit; tanpa kredit, panggilan ditolak dengan 402 QUOTA_EXCEEDED. Agar panggilan tetap berjalan, isi kredit atau pilih paket yang lebih besar: ${billing}\n\nPemakaian, peringatan dan batas: ${usage}`,
        };
  }
  if (d.kind === "quota") {
    return en
      ? {
          subject: "Wilayah API: this month's quota is used up",
          text: `Your account has used all ${n(lang, d.quota)} calls your plan includes in ${d.month} (UTC). From now on each call spends one credit; without credits, calls are refused with 402 QUOTA_EXCEEDED until the month ends.\n\nTop up credits or choose a larger plan: ${billing}\n\nUsage, alerts and limits: ${usage}`,
        }
      : {
          subject: "Wilayah API: kuota bulan ini sudah habis",
          text: `Akun Anda sudah memakai seluruh ${n(lang, d.quota)} panggilan yang termasuk dalam paket Anda pada ${d.month} (UTC). Mulai sekarang setiap panggilan memakai satu kredit; tanpa kredit, panggilan ditolak dengan 402 QUOTA_EXCEEDED sampai bulan berakhir.\n\nIsi kredit atau pilih paket yang lebih besar: ${billing}\n\nPemakaian, peringatan dan batas: ${usage}`,
        };
  }
  if (d.kind === "credits") {
    return en
      ? {
          subject: `Wilayah API: fewer than ${n(lang, d.threshold)} credits left`,
          text: `Your account has ${n(lang, d.credits_left ?? 0)} credits left, below the level of ${n(lang, d.threshold)} you set. Calls beyond your plan's quota spend one credit each; without credits they are refused with 402 QUOTA_EXCEEDED.\n\nTop up: ${billing}\n\nChange this alert: ${usage}`,
        }
      : {
          subject: `Wilayah API: kredit tersisa kurang dari ${n(lang, d.threshold)}`,
          text: `Kredit akun Anda tinggal ${n(lang, d.credits_left ?? 0)}, di bawah batas ${n(lang, d.threshold)} yang Anda tetapkan. Panggilan di luar kuota paket memakai satu kredit masing-masing; tanpa kredit, panggilan ditolak dengan 402 QUOTA_EXCEEDED.\n\nIsi kredit: ${billing}\n\nUbah peringatan ini: ${usage}`,
        };
  }
  return en
    ? {
        subject: "Wilayah API: your monthly spend limit is reached",
        text: `Calls beyond your plan's quota are now refused with 402 SPEND_LIMIT_REACHED: your account has spent ${n(lang, d.spent ?? d.threshold)} credits beyond the quota in ${d.month} (UTC), and the limit you set is ${n(lang, d.threshold)}. Calls within the quota are not affected; the limit starts again next month.\n\nRaise or remove the limit: ${usage}`,
      }
    : {
        subject: "Wilayah API: batas belanja bulanan tercapai",
        text: `Panggilan di luar kuota paket kini ditolak dengan 402 SPEND_LIMIT_REACHED: akun Anda sudah memakai ${n(lang, d.spent ?? d.threshold)} kredit di luar kuota pada ${d.month} (UTC), dan batas yang Anda tetapkan ${n(lang, d.threshold)}. Panggilan dalam kuota tidak terpengaruh; batas dimulai lagi bulan depan.\n\nNaikkan atau hapus batas: ${usage}`,
      };
}

/** Records, emails and announces one alert (see the top of this file). Throws when D1 or the queue failed: the object tries again. */
export async function deliverAlert(env: Env, userId: string, alert: FiredAlert, now = Date.now()): Promise<void> {
  const db = primaryDb(env);
  const [user, settings] = await Promise.all([findUserById(db, userId), findAccountSettings(db, userId)]);
  if (!user) return;
  const data = alertData(alert, portalUrl(env));
  const row = await recordAlert(db, {
    userId,
    month: alert.month,
    kind: alert.kind,
    level: alert.level,
    data: JSON.stringify(data),
    createdAt: alert.at,
  });
  if (row.emailedAt === null && (await mailerFor(env).send({ to: user.email, ...alertMail(settings?.lang ?? "id", data) }))) {
    await markAlertEmailed(db, row.id, now);
  }
  await announceUsageThreshold(env, userId, data, alert.at);
}
