/**
 * Bot challenge (Cloudflare Turnstile or a compatible provider) behind a small adapter. Enabled when
 * both TURNSTILE_SITE_KEY (var) and TURNSTILE_SECRET (secret) are set.
 */
import { ApiError } from "../lib/errors";

export const CHALLENGE_ACTION = "challenge-spin-v2";
const TIMEOUT_MS = 5_000;

export function challengeRequired(env: Env): boolean {
  return Boolean(env.TURNSTILE_SITE_KEY && env.TURNSTILE_SECRET);
}

type SiteverifyAnswer = { success?: boolean; action?: string; hostname?: string; "error-codes"?: string[] };

/**
 * The hostnames a solved challenge may come from: CHALLENGE_HOSTNAMES when set, else the host the
 * request came to and DASHBOARD_URL's (a token solved on another site is no proof for this one).
 */
function expectedHostnames(env: Env, requestHost: string): string[] {
  const configured = env.CHALLENGE_HOSTNAMES.split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  if (configured.length) return configured;
  const hosts = [requestHost.toLowerCase()];
  try {
    if (env.DASHBOARD_URL) hosts.push(new URL(env.DASHBOARD_URL).hostname.toLowerCase());
  } catch {
    // not a URL: nothing to add
  }
  return hosts;
}

/** Throws CHALLENGE_REQUIRED / CHALLENGE_FAILED; returns when the token is good (or no challenge is configured). */
export async function checkChallenge(env: Env, token: string | undefined, remoteIp: string | undefined, requestHost: string): Promise<void> {
  if (!challengeRequired(env)) return;
  if (!token) throw new ApiError("CHALLENGE_REQUIRED", "Complete the bot challenge and send its token as challengeToken.");
  if (token.length > 2048) throw new ApiError("CHALLENGE_FAILED", "The challenge token is not valid.");
  const form = new FormData();
  form.set("secret", env.TURNSTILE_SECRET ?? "");
  form.set("response", token);
  if (remoteIp) form.set("remoteip", remoteIp);
  form.set("idempotency_key", crypto.randomUUID());
  let answer: SiteverifyAnswer;
  try {
    const res = await fetch(env.CHALLENGE_VERIFY_URL, { method: "POST", body: form, signal: AbortSignal.timeout(TIMEOUT_MS) });
    answer = (await res.json()) as SiteverifyAnswer;
  } catch {
    throw new ApiError("CHALLENGE_FAILED", "The challenge could not be verified right now. Try again.");
  }
  if (answer.success !== true) throw new ApiError("CHALLENGE_FAILED", "The challenge token is not valid or was already used.");
  if (answer.action !== CHALLENGE_ACTION) throw new ApiError("CHALLENGE_FAILED", "The challenge token was issued for another action.");
  if (!answer.hostname || !expectedHostnames(env, requestHost).includes(answer.hostname.toLowerCase())) {
    throw new ApiError("CHALLENGE_FAILED", "The challenge was solved on another site.");
  }
}
