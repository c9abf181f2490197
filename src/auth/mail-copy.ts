/**
 * The account emails in the language of the page the person was on when they asked (the portal's
 * `id` or `en`; the REST API writes English): one language per message, as per page. Durations are
 * said from their constants.
 */
import { spokenDuration } from "../lib/time";

export type MailLang = "id" | "en";

/** `24 hours` / `24 jam`, `30 minutes` / `30 menit`. */
function duration(lang: MailLang, ms: number): string {
  const en = spokenDuration(ms);
  if (lang === "en") return en;
  return en
    .replace(/ hours?$/, " jam")
    .replace(/ minutes?$/, " menit")
    .replace(/ seconds?$/, " detik");
}

export const mailCopy = {
  verify(lang: MailLang, link: string, validMs: number) {
    return lang === "id"
      ? {
          subject: "Verifikasi email Anda untuk Wilayah API",
          text: `Buka tautan ini untuk memverifikasi alamat email Anda (berlaku ${duration(lang, validMs)}):\n\n${link}\n\nJika Anda tidak mendaftar di Wilayah API, abaikan pesan ini.`,
        }
      : {
          subject: "Verify your email for Wilayah API",
          text: `Open this link to verify your email address (valid for ${duration(lang, validMs)}):\n\n${link}\n\nIf you did not sign up for Wilayah API, ignore this message.`,
        };
  },
  reset(lang: MailLang, link: string, validMs: number) {
    return lang === "id"
      ? {
          subject: "Atur ulang kata sandi Wilayah API Anda",
          text: `Buka tautan ini untuk memilih kata sandi baru (hanya sekali pakai, berlaku ${duration(lang, validMs)}):\n\n${link}\n\nKata sandi baru mengakhiri setiap sesi akun. Jika Anda tidak memintanya, abaikan pesan ini: kata sandi Anda tetap seperti semula.`,
        }
      : {
          subject: "Reset your Wilayah API password",
          text: `Open this link to choose a new password (it works once, for ${duration(lang, validMs)}):\n\n${link}\n\nSetting a new password ends every session of the account. If you did not ask for this, ignore this message: your password stays as it is.`,
        };
  },
};
