import { Hono } from "hono";
import { z } from "zod";
import { accountHooks } from "../admin/lifecycle";
import { bearerToken } from "../auth/guards";
import { emailInput, loginPasswordInput, nameInput, passwordInput } from "../auth/inputs";
import {
  configResponse,
  forgotResponse,
  loginResponse,
  logoutAllResponse,
  logoutResponse,
  meResponse,
  registerResponse,
  resendResponse,
  resetResponse,
} from "../auth/schemas";
import {
  changePassword,
  dashboardBase,
  forgotPassword,
  login,
  logout,
  logoutEverywhere,
  publicConfig,
  register,
  resendVerification,
  resetPassword,
  verifyEmail,
} from "../auth/service";
import { RESET_TTL_SECONDS, VERIFY_TTL_SECONDS } from "../auth/tokens";
import { publicUser } from "../auth/users";
import { publicRoute, requireUser } from "../gate";
import { type BaseEnv, requestMeta } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody } from "../http/validate";
import { spokenDuration } from "../lib/time";
import { sessionUser } from "../portal/session";

export const authRoutes = new Hono<BaseEnv>();

/** Where the request comes from: client IP and request id (throttles, the challenge, the audit trail) and this API's origin (links in emails). */
const origin = (c: Parameters<typeof requestMeta>[0] & { req: { url: string } }) => ({ ...requestMeta(c), apiBaseUrl: new URL(c.req.url).origin });

const email = emailInput;
const password = passwordInput;
const challengeToken = z.string().max(4096).optional().describe("The bot-challenge widget's token, when `challenge_required`");
const tags = ["Auth"];
/** How long an emailed link works, as the answers and the API document say it. */
const resetLinkLife = spokenDuration(RESET_TTL_SECONDS * 1000);
const verifyLinkLife = spokenDuration(VERIFY_TTL_SECONDS * 1000);

/** The one answer to a forgotten password, whether an account has the email or not. */
const FORGOT_ANSWER = {
  data: { message: `If an account has this email, a link to reset its password is on its way. It works once, for ${resetLinkLife}.` },
};

authRoutes.post(
  "/register",
  doc({
    operationId: "register",
    tags,
    summary: "Register",
    description:
      "Creates an account with an unverified email and sends the verification link; answers with a session token. Limited to 10 per minute per client IP.",
    caller: "none",
    input: "json",
    ok: { status: 201, description: "Registered", schema: registerResponse },
    errors: ["EMAIL_TAKEN", "CHALLENGE_REQUIRED", "CHALLENGE_FAILED", "RATE_LIMITED"],
  }),
  publicRoute,
  ...jsonBody(z.object({ email, password, name: nameInput, challengeToken })),
  async (c) => {
    const r = await register(c.env, c.req.valid("json"), origin(c), accountHooks);
    return c.json({ data: { id: r.id, email: r.email, email_verified: false }, email_verification_sent: r.emailVerificationSent, token: r.token }, 201);
  },
);

authRoutes.post(
  "/login",
  doc({
    operationId: "login",
    tags,
    summary: "Log in",
    description:
      "Exchanges email and password for a session token (7 days). Unknown email and wrong password give the same answer, in the same time. After 5 failed logins for one email within 15 minutes the email is locked for 30 seconds, doubling with each further failure up to 15 minutes (429 `RATE_LIMITED` with `Retry-After`, the same for an email with no account, and also for the right password); the lock lifts by itself.",
    caller: "none",
    input: "json",
    ok: { description: "Logged in", schema: loginResponse },
    errors: ["INVALID_CREDENTIALS", "ACCOUNT_SUSPENDED", "CHALLENGE_REQUIRED", "CHALLENGE_FAILED", "RATE_LIMITED"],
  }),
  publicRoute,
  ...jsonBody(z.object({ email, password: loginPasswordInput, challengeToken })),
  async (c) => {
    const { user, token } = await login(c.env, c.req.valid("json"), origin(c));
    return c.json({ data: publicUser(user), token });
  },
);

authRoutes.get(
  "/me",
  doc({ operationId: "getMe", tags, summary: "The current user", caller: "bearer", ok: { description: "The user", schema: meResponse } }),
  requireUser,
  (c) => c.json({ data: publicUser(c.get("user")) }),
);

authRoutes.get(
  "/verify-email",
  doc({
    operationId: "verifyEmail",
    tags,
    summary: "Verify an email address",
    description: "The link emailed at registration. Redirects to the dashboard with `?verified=1`, or `?verify_error=invalid|expired`.",
    caller: "none",
    parameters: [
      { in: "query", name: "token", required: true, schema: { type: "string" }, description: `The token from the emailed link (valid ${verifyLinkLife})` },
    ],
    ok: {
      status: 302,
      description: "Redirect to the dashboard",
      headers: { location: { schema: { type: "string" }, description: "`{DASHBOARD_URL}/?verified=1` or `?verify_error=invalid|expired`" } },
    },
  }),
  publicRoute,
  // The opener: the account whose portal session the browser opening the link carries, if any.
  async (c) => {
    const outcome = await verifyEmail(c.env, c.req.query("token"), (await sessionUser(c))?.id ?? null, requestMeta(c));
    return c.redirect(`${dashboardBase(c.env)}/?${outcome === "verified" ? "verified=1" : `verify_error=${outcome}`}`, 302);
  },
);

authRoutes.post(
  "/resend-verification",
  doc({
    operationId: "resendVerification",
    tags,
    summary: "Send the verification link again",
    description: "One per minute per user.",
    caller: "bearer",
    ok: { description: "Sent (or not, when the mailer refused)", schema: resendResponse },
    errors: ["ALREADY_VERIFIED", "RATE_LIMITED"],
  }),
  requireUser,
  async (c) => c.json({ data: { email_verification_sent: await resendVerification(c.env, c.get("user"), origin(c)) } }),
);

const sessionErrors = ["INVALID_TOKEN"] as const;

authRoutes.post(
  "/logout",
  doc({
    operationId: "logout",
    tags,
    summary: "Log out (this session)",
    description: "Ends the session token of this request at once; the account's other sessions go on.",
    caller: "bearer",
    ok: { description: "Ended", schema: logoutResponse },
  }),
  requireUser,
  async (c) => {
    await logout(c.env, c.get("user"), bearerToken(c.req.header("authorization")), requestMeta(c));
    return c.json({ data: { logged_out: true } });
  },
);

authRoutes.post(
  "/logout-all",
  doc({
    operationId: "logoutAll",
    tags,
    summary: "Log out everywhere",
    description: "Ends every session of the account, this one included (every token issued before now answers 401 `INVALID_TOKEN`).",
    caller: "bearer",
    ok: { description: "Every session ended", schema: logoutAllResponse },
  }),
  requireUser,
  async (c) => {
    await logoutEverywhere(c.env, c.get("user"), requestMeta(c));
    return c.json({ data: { sessions_ended: true } });
  },
);

authRoutes.post(
  "/change-password",
  doc({
    operationId: "changePassword",
    tags,
    summary: "Change the password",
    description:
      "Needs the current password (a wrong one counts toward the login lock of the email). Ends every other session; the answer carries a new token for this client. New passwords found in a breached-password list are refused.",
    caller: "bearer",
    input: "json",
    ok: { description: "Changed; `token` replaces the one used", schema: loginResponse },
    errors: ["INVALID_CREDENTIALS", "RATE_LIMITED", ...sessionErrors],
  }),
  requireUser,
  ...jsonBody(z.object({ current_password: loginPasswordInput, new_password: password })),
  async (c) => {
    const { user, token } = await changePassword(c.env, c.get("user"), c.req.valid("json"), requestMeta(c));
    return c.json({ data: publicUser(user), token });
  },
);

authRoutes.post(
  "/forgot-password",
  doc({
    operationId: "forgotPassword",
    tags,
    summary: "Ask for a password-reset link",
    description: `Always the same 200 answer, in the same time, whether an account has the email or not (the message is sent after the answer). An account gets at most one message per minute and 5 per 24 hours; the link works once, for ${resetLinkLife}. Limited to 10 requests per minute per client IP. Needs the bot challenge's token when \`challenge_required\`.`,
    caller: "none",
    input: "json",
    ok: { description: "Accepted", schema: forgotResponse },
    errors: ["CHALLENGE_REQUIRED", "CHALLENGE_FAILED", "RATE_LIMITED"],
  }),
  publicRoute,
  ...jsonBody(z.object({ email, challengeToken })),
  async (c) => {
    await forgotPassword(c.env, c.req.valid("json"), origin(c), (work) => c.executionCtx.waitUntil(work));
    return c.json(FORGOT_ANSWER);
  },
);

authRoutes.post(
  "/reset-password",
  doc({
    operationId: "resetPassword",
    tags,
    summary: "Set a new password with a reset link's token",
    description: `The token from the emailed link (single use, ${resetLinkLife}). Every session of the account ends and the email counts as verified. When the account was set up by someone who never proved they own the email (registered with it, verified from another browser), this is a takeover: the keys created before it are revoked too, and \`takeover\` says so.`,
    caller: "none",
    input: "json",
    ok: { description: "The password is set", schema: resetResponse },
    errors: ["INVALID_RESET_TOKEN"],
  }),
  publicRoute,
  ...jsonBody(z.object({ token: z.string().min(1).max(2048), password })),
  async (c) => {
    const r = await resetPassword(c.env, c.req.valid("json"), requestMeta(c), accountHooks);
    return c.json({ data: { password_reset: true, sessions_ended: true, takeover: r.takeover, keys_revoked: r.keysRevoked, email: r.email } });
  },
);

authRoutes.get(
  "/config",
  doc({
    operationId: "getAuthConfig",
    tags,
    summary: "Public configuration",
    description: "Whether the bot challenge is required (and its site key) and which sign-in providers are on.",
    caller: "none",
    ok: { description: "The public configuration", schema: configResponse },
  }),
  publicRoute,
  (c) => c.json({ data: publicConfig(c.env) }),
);
