/**
 * Secrets the Worker uses when present. `wrangler types` knows only the required ones
 * (wrangler.toml [secrets]); these are optional features, so they are declared here as optional,
 * on both the global `Env` and `Cloudflare.Env` (what `cloudflare:workers` exports).
 */
interface OptionalSecrets {
  JWT_SECRET_PREVIOUS?: string;
  TURNSTILE_SECRET?: string;
  RESEND_API_KEY?: string;
  TRIPAY_API_KEY?: string;
  TRIPAY_PRIVATE_KEY?: string;
  TRIPAY_MERCHANT_CODE?: string;
  GOOGLE_CLIENT_SECRET?: string;
  GITHUB_CLIENT_SECRET?: string;
  /** The key webhook signing secrets are encrypted under at rest (src/webhooks/secret.ts); unset: derived from JWT_SECRET. */
  WEBHOOK_SECRET_KEY?: string;
  /** Development only, never in wrangler.toml: "on" enforces D1's production limits locally (src/db/guard.ts). */
  D1_GUARD?: string;
  /** Development only, never in wrangler.toml: "on" settles invoices with the local payment simulator when Tripay is not configured (src/billing/simulator.ts). */
  PAYMENT_SIMULATOR?: string;
}
interface Env extends OptionalSecrets {}
declare namespace Cloudflare {
  interface Env extends OptionalSecrets {}
}
