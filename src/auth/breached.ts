/**
 * Breached passwords, behind an adapter: a k-anonymity range query (the Pwned Passwords API's
 * protocol) to BREACHED_PASSWORDS_URL. Only the first five hex characters of the password's SHA-1
 * leave the Worker; the answer lists the suffixes sharing them (`SUFFIX:COUNT` lines, padded). Empty
 * URL: off (the tests and local tools, which reach no network). The service being down or slow
 * never blocks a sign-up: the check is then skipped and logged.
 */
import { hex } from "../lib/crypto";
import { errorText, log } from "../lib/log";

const TIMEOUT_MS = 3_000;

/** True when the password appears in the breached-password list; false when it does not or the list cannot be asked. */
export async function isBreachedPassword(env: Env, password: string): Promise<boolean> {
  const base = env.BREACHED_PASSWORDS_URL;
  if (!base) return false;
  const digest = hex(new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(password)))).toUpperCase();
  const prefix = digest.slice(0, 5);
  const suffix = digest.slice(5);
  try {
    const res = await fetch(`${base}${prefix}`, { headers: { "add-padding": "true" }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) throw new Error(`status ${res.status}`);
    for (const line of (await res.text()).split("\n")) {
      const [s, count] = line.trim().split(":");
      if (s?.toUpperCase() === suffix && Number(count) > 0) return true;
    }
    return false;
  } catch (e) {
    // Expected offline (development without internet): one plain line, and the sign-up goes on.
    log.notice("breached_password_check_skipped", { error: errorText(e) });
    return false;
  }
}
