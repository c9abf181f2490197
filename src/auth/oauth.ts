/**
 * Sign-in with Google (OpenID Connect) and GitHub (OAuth 2.0) through oauth4webapi: authorization
 * code flow with `state` and PKCE (S256) for both. Google's id_token is validated (iss, aud, exp,
 * nonce) and must say `email_verified`; GitHub's primary email must be `verified`. Endpoints come
 * from vars (real defaults), so tests can intercept them. Knows nothing of cookies or pages.
 */
import * as oauth from "oauth4webapi";
import { errorText, log } from "../lib/log";

export type Provider = "google" | "github";
export const PROVIDERS: readonly Provider[] = ["google", "github"];

/** What the browser carries between the start and the callback (in a signed, short-lived cookie). */
export type PendingAuthorization = { provider: Provider; state: string; verifier: string; nonce: string; exp: number };

/** Why a sign-in did not happen; the portal shows each in words. */
export class OAuthFailure extends Error {
  constructor(readonly reason: "access_denied" | "unverified_email" | "state" | "provider") {
    super(reason);
  }
}

export const PENDING_TTL_SECONDS = 600;

type Setup = { as: oauth.AuthorizationServer; authorizationUrl: string; client: oauth.Client; auth: oauth.ClientAuth; scope: string };

function setup(env: Env, provider: Provider): Setup | null {
  if (provider === "google") {
    if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null;
    return {
      as: { issuer: env.GOOGLE_ISSUER, authorization_endpoint: env.GOOGLE_AUTHORIZATION_URL, token_endpoint: env.GOOGLE_TOKEN_URL },
      authorizationUrl: env.GOOGLE_AUTHORIZATION_URL,
      client: { client_id: env.GOOGLE_CLIENT_ID },
      auth: oauth.ClientSecretPost(env.GOOGLE_CLIENT_SECRET),
      scope: "openid email profile",
    };
  }
  if (!env.GITHUB_CLIENT_ID || !env.GITHUB_CLIENT_SECRET) return null;
  return {
    as: { issuer: "https://github.com", authorization_endpoint: env.GITHUB_AUTHORIZATION_URL, token_endpoint: env.GITHUB_TOKEN_URL },
    authorizationUrl: env.GITHUB_AUTHORIZATION_URL,
    client: { client_id: env.GITHUB_CLIENT_ID },
    auth: oauth.ClientSecretPost(env.GITHUB_CLIENT_SECRET),
    scope: "read:user user:email",
  };
}

/** Whether a provider is configured (client id and secret). */
export const providerEnabled = (env: Env, provider: Provider) => setup(env, provider) !== null;

/** The provider's authorization URL and what the callback must be checked against. */
export async function startAuthorization(env: Env, provider: Provider, redirectUri: string): Promise<{ url: string; pending: PendingAuthorization } | null> {
  const s = setup(env, provider);
  if (!s) return null;
  const verifier = oauth.generateRandomCodeVerifier();
  const pending: PendingAuthorization = {
    provider,
    state: oauth.generateRandomState(),
    verifier,
    nonce: oauth.generateRandomNonce(),
    exp: Date.now() + PENDING_TTL_SECONDS * 1000,
  };
  const url = new URL(s.authorizationUrl);
  url.searchParams.set("client_id", s.client.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", s.scope);
  url.searchParams.set("state", pending.state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  if (provider === "google") url.searchParams.set("nonce", pending.nonce);
  if (provider === "github") url.searchParams.set("allow_signup", "true");
  return { url: url.href, pending };
}

/**
 * The callback: state checked (a declined consent or a provider error reported as such), the code
 * exchanged with the PKCE verifier, and the verified email read. Throws OAuthFailure.
 */
export async function finishAuthorization(
  env: Env,
  pending: PendingAuthorization,
  callbackUrl: URL,
  redirectUri: string,
): Promise<{ email: string; name: string }> {
  const s = setup(env, pending.provider);
  if (!s) throw new OAuthFailure("provider");
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(s.as, s.client, callbackUrl, pending.state);
  } catch (e) {
    if (e instanceof oauth.AuthorizationResponseError) throw new OAuthFailure(e.error === "access_denied" ? "access_denied" : "provider");
    throw new OAuthFailure("state");
  }
  try {
    const response = await oauth.authorizationCodeGrantRequest(s.as, s.client, s.auth, params, redirectUri, pending.verifier, {
      signal: AbortSignal.timeout(10_000),
    });
    if (pending.provider === "google") {
      const result = await oauth.processAuthorizationCodeResponse(s.as, s.client, response, { expectedNonce: pending.nonce, requireIdToken: true });
      const claims = oauth.getValidatedIdTokenClaims(result);
      if (!claims) throw new OAuthFailure("provider");
      if (typeof claims.email !== "string" || claims.email_verified !== true) throw new OAuthFailure("unverified_email");
      return { email: claims.email, name: typeof claims.name === "string" ? claims.name : "" };
    }
    const result = await oauth.processAuthorizationCodeResponse(s.as, s.client, response);
    return await githubVerifiedEmail(env, result.access_token);
  } catch (e) {
    if (e instanceof OAuthFailure) throw e;
    log.warn("oauth_callback_failed", { provider: pending.provider, error: errorText(e) });
    throw new OAuthFailure("provider");
  }
}

/** GitHub: only the primary email, and only when GitHub says it is verified. */
async function githubVerifiedEmail(env: Env, accessToken: string): Promise<{ email: string; name: string }> {
  const headers = {
    authorization: `Bearer ${accessToken}`,
    accept: "application/vnd.github+json",
    "user-agent": "wilayah-api",
    "x-github-api-version": "2022-11-28",
  };
  const base = env.GITHUB_API_URL.replace(/\/$/, "");
  const res = await fetch(`${base}/user/emails`, { headers, signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new OAuthFailure("provider");
  const emails = (await res.json()) as { email?: unknown; primary?: unknown; verified?: unknown }[];
  const primary = Array.isArray(emails) ? emails.find((e) => e.primary === true) : undefined;
  if (!primary || typeof primary.email !== "string" || primary.verified !== true) throw new OAuthFailure("unverified_email");
  let name = "";
  const me = await fetch(`${base}/user`, { headers, signal: AbortSignal.timeout(10_000) }).catch(() => null);
  if (me?.ok) {
    const u = (await me.json().catch(() => ({}))) as { name?: unknown; login?: unknown };
    name = typeof u.name === "string" && u.name ? u.name : typeof u.login === "string" ? u.login : "";
  }
  return { email: primary.email, name };
}

/**
 * A callback's state is used once: the first use leaves a marker in KV, and a second callback with
 * the same state (a replayed code, a reload) is refused. True on first use.
 */
export async function useStateOnce(env: Env, state: string): Promise<boolean> {
  const key = `oauth-used:${state}`;
  if (await env.KV.get(key)) return false;
  await env.KV.put(key, "1", { expirationTtl: PENDING_TTL_SECONDS });
  return true;
}
