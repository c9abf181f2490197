/**
 * The portal's copy in Indonesian and English. The language is the `lang` cookie (set by the
 * toggle) or else the browser's Accept-Language; Indonesian when neither says English.
 */
import type { ErrorCode } from "../lib/errors";
import * as account from "./copy-account";
import * as billing from "./copy-billing";
import * as site from "./copy-site";
import * as tools from "./copy-tools";

export type Lang = "id" | "en";

/**
 * The copy, merged from its page areas (copy-*.ts: each holds its keys in both languages, and its
 * `id` must fill every key of its `en`). No key is in two areas (copy.test.ts).
 */
export const copyAreas = { site, account, billing, tools };
const en = { ...site.en, ...account.en, ...billing.en, ...tools.en };
export type Key = keyof typeof en;
const id: Record<Key, string> = { ...site.id, ...account.id, ...billing.id, ...tools.id };

/** The contract's errors in words a person reads; codes not listed show the API's own (English) message. */
const errorsEn: Partial<Record<ErrorCode, string>> = {
  INVALID_CREDENTIALS: "Email or password is wrong.",
  EMAIL_TAKEN: "An account with this email already exists. Log in instead.",
  CHALLENGE_REQUIRED: "Complete the bot check first.",
  CHALLENGE_FAILED: "The bot check failed or expired. Try it again.",
  RATE_LIMITED: "Too many attempts. Wait a minute and try again.",
  QUOTA_EXCEEDED:
    "Your plan's remaining monthly quota and your credits cannot cover this many calls; nothing was counted. Send fewer, top up credits or choose a larger plan (Plans & billing).",
  SPEND_LIMIT_REACHED:
    "This would spend credits beyond your monthly spend limit; nothing was counted. Raise or remove the limit (Usage, Alerts and limits), or wait for next month.",
  ACCOUNT_SUSPENDED: "This account is suspended. Contact support.",
  EMAIL_NOT_VERIFIED: "Verify your email address first.",
  KEY_LIMIT_REACHED: "You have the maximum number of active keys. Revoke one first.",
  WEBHOOK_LIMIT_REACHED: "You have the maximum number of webhook endpoints (10). Delete one first.",
  PAYMENT_NOT_CONFIGURED: "Payments are not set up on this server: no payment provider is configured. Nothing was charged; contact the operator.",
  UPSTREAM_ERROR: "The payment provider did not accept the request. Nothing was charged; try again.",
  UPSTREAM_TIMEOUT: "The payment provider did not answer in time. Nothing was charged; try again.",
  NOT_FOUND: "Not found.",
  FORBIDDEN: "This page is for administrators.",
  ALREADY_VERIFIED: "Your email is already verified.",
  INVALID_TOKEN: "Your session has ended. Log in again.",
  INVALID_RESET_TOKEN: "This reset link is not valid, has expired or was already used. Ask for a new one.",
  LAST_ADMIN: "This would leave no active administrator. Make another user an admin first.",
  TOO_MANY_OPEN_INVOICES: "You have too many unpaid invoices open. Pay one or let them expire first.",
  VALIDATION_ERROR: "Please check these fields:",
  SERVICE_UNAVAILABLE: "A service we need did not answer. Nothing was changed; try again in a few seconds.",
};
const errorsId: Partial<Record<ErrorCode, string>> = {
  INVALID_CREDENTIALS: "Email atau kata sandi salah.",
  EMAIL_TAKEN: "Sudah ada akun dengan email ini. Silakan masuk.",
  CHALLENGE_REQUIRED: "Selesaikan pemeriksaan bot dulu.",
  CHALLENGE_FAILED: "Pemeriksaan bot gagal atau kedaluwarsa. Coba lagi.",
  RATE_LIMITED: "Terlalu banyak percobaan. Tunggu satu menit lalu coba lagi.",
  QUOTA_EXCEEDED:
    "Sisa kuota bulanan paket dan kredit Anda tidak cukup untuk panggilan sebanyak ini; tidak ada yang dihitung. Kirim lebih sedikit, isi kredit atau pilih paket yang lebih besar (Paket & tagihan).",
  SPEND_LIMIT_REACHED:
    "Ini akan memakai kredit melebihi batas belanja bulanan Anda; tidak ada yang dihitung. Naikkan atau hapus batas (Pemakaian, Peringatan dan batas), atau tunggu bulan depan.",
  ACCOUNT_SUSPENDED: "Akun ini ditangguhkan. Hubungi dukungan.",
  EMAIL_NOT_VERIFIED: "Verifikasi alamat email Anda dulu.",
  KEY_LIMIT_REACHED: "Jumlah kunci aktif Anda sudah maksimum. Cabut satu dulu.",
  WEBHOOK_LIMIT_REACHED: "Jumlah endpoint webhook Anda sudah maksimum (10). Hapus satu dulu.",
  PAYMENT_NOT_CONFIGURED:
    "Pembayaran belum disiapkan di server ini: belum ada penyedia pembayaran yang dikonfigurasi. Tidak ada yang ditagih; hubungi pengelola layanan.",
  UPSTREAM_ERROR: "Penyedia pembayaran tidak menerima permintaan. Tidak ada yang ditagih; coba lagi.",
  UPSTREAM_TIMEOUT: "Penyedia pembayaran tidak menjawab tepat waktu. Tidak ada yang ditagih; coba lagi.",
  NOT_FOUND: "Tidak ditemukan.",
  FORBIDDEN: "Halaman ini khusus administrator.",
  ALREADY_VERIFIED: "Email Anda sudah terverifikasi.",
  INVALID_TOKEN: "Sesi Anda sudah berakhir. Silakan masuk lagi.",
  INVALID_RESET_TOKEN: "Tautan atur ulang ini tidak sah, kedaluwarsa atau sudah dipakai. Minta tautan baru.",
  LAST_ADMIN: "Tidak akan ada administrator aktif lagi. Jadikan pengguna lain admin dulu.",
  TOO_MANY_OPEN_INVOICES: "Terlalu banyak tagihan belum dibayar. Bayar salah satu atau tunggu kedaluwarsa dulu.",
  VALIDATION_ERROR: "Periksa isian berikut:",
  SERVICE_UNAVAILABLE: "Layanan yang kami perlukan tidak menjawab. Tidak ada yang diubah; coba lagi beberapa detik lagi.",
};

export type T = (key: Key, vars?: Record<string, string | number>) => string;

export function translator(lang: Lang): T {
  const dict = lang === "en" ? en : id;
  return (key, vars) => {
    let s: string = dict[key];
    for (const [k, v] of Object.entries(vars ?? {})) s = s.replace(`{${k}}`, String(v));
    return s;
  };
}

export function errorText(lang: Lang, code: ErrorCode, fallback: string): string {
  return (lang === "en" ? errorsEn : errorsId)[code] ?? fallback;
}

/** `lang` cookie first, then the first of id/en in Accept-Language; Indonesian by default. */
export function pickLang(cookie: string | undefined, acceptLanguage: string | undefined): Lang {
  if (cookie === "en" || cookie === "id") return cookie;
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().toLowerCase().split(";");
      const q = Number(params.find((p) => p.trim().startsWith("q="))?.split("=")[1] ?? 1);
      return { tag: tag.split("-")[0], q: Number.isFinite(q) ? q : 0 };
    })
    .filter((x) => x.tag === "en" || x.tag === "id")
    .sort((a, b) => b.q - a.q);
  return (ranked[0]?.tag as Lang | undefined) ?? "id";
}

export function formatNumber(lang: Lang, n: number): string {
  return n.toLocaleString(lang === "en" ? "en-US" : "id-ID");
}

export function formatIdr(lang: Lang, n: number): string {
  return `Rp${formatNumber(lang, n)}`;
}

/**
 * A time in Jakarta time (WIB), labelled so: "28 Nov 2026, 10:15 WIB". The label is ours, not
 * Intl's zone name (English gives "GMT+7", Indonesian "WIB"): one word, the one Indonesia uses.
 */
export function formatDate(lang: Lang, iso: string | null): string {
  if (!iso) return "";
  return `${new Date(iso).toLocaleString(lang === "en" ? "en-GB" : "id-ID", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Jakarta" })} WIB`;
}
