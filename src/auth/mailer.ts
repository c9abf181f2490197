/**
 * Outgoing email behind an adapter. With RESEND_API_KEY: Resend's HTTP API. Without it, in
 * development: the console (prints the message, e.g. the verification link). Otherwise: none.
 * `send` answers whether the message was handed over; it never throws.
 */
import { errorText, log } from "../lib/log";

export type Mail = { to: string; subject: string; text: string };

export interface Mailer {
  send(mail: Mail): Promise<boolean>;
}

const RESEND_URL = "https://api.resend.com/emails";

/** Mail is printed to the console, not sent: development without a provider (the portal says so). */
export const usesConsoleMailer = (env: Env): boolean => !env.RESEND_API_KEY && env.ENVIRONMENT === "development";

export function mailerFor(env: Env): Mailer {
  if (env.RESEND_API_KEY) {
    return {
      async send(mail) {
        try {
          const res = await fetch(RESEND_URL, {
            method: "POST",
            headers: { authorization: `Bearer ${env.RESEND_API_KEY}`, "content-type": "application/json" },
            body: JSON.stringify({ from: env.MAIL_FROM, to: [mail.to], subject: mail.subject, text: mail.text }),
            signal: AbortSignal.timeout(5_000),
          });
          if (!res.ok) log.notice("mail_not_sent", { subject: mail.subject, status: res.status });
          return res.ok;
        } catch (e) {
          // Unreachable (offline development, the provider down): the caller says the mail was not sent; one plain line here.
          log.notice("mail_not_sent", { subject: mail.subject, error: errorText(e) });
          return false;
        }
      },
    };
  }
  if (usesConsoleMailer(env)) {
    return {
      async send(mail) {
        console.log(`[console mailer] to ${mail.to}: ${mail.subject}\n${mail.text}`);
        return true;
      },
    };
  }
  // Production without a provider: nothing is sent and nothing pretends it was (no link in any log).
  return {
    async send(mail) {
      log.warn("mail_not_configured", { subject: mail.subject });
      return false;
    },
  };
}
