import type { HonoRequest } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../auth/guards";
import { emailInput, loginPasswordInput, nameInput, passwordInput } from "../auth/inputs";
import { configResponse, loginResponse, meResponse, registerResponse, resendResponse } from "../auth/schemas";
import { login, publicConfig, register, resendVerification, verifyEmail } from "../auth/service";
import { publicUser } from "../auth/users";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody } from "../http/validate";

export const authRoutes = new Hono<BaseEnv>();

/** Where the request comes from: the client IP (throttles, the challenge) and this API's origin (links in emails). */
const origin = (req: HonoRequest) => ({ ip: req.header("cf-connecting-ip"), apiBaseUrl: new URL(req.url).origin });

const email = emailInput;
const password = passwordInput;
const challengeToken = z.string().max(4096).optional().describe("The bot-challenge widget's token, when `challenge_required`");
const tags = ["Auth"];

authRoutes.post(
  "/register",
  doc({
    tags,
    summary: "Register",
    description:
      "Creates an account with an unverified email and sends the verification link; answers with a session token. Limited to 10 per minute per client IP.",
    caller: "none",
    input: "json",
    ok: { status: 201, description: "Registered", schema: registerResponse },
    errors: ["EMAIL_TAKEN", "CHALLENGE_REQUIRED", "CHALLENGE_FAILED", "RATE_LIMITED"],
  }),
  ...jsonBody(z.object({ email, password, name: nameInput, challengeToken })),
  async (c) => c.json(await register(c.env, c.req.valid("json"), origin(c.req)), 201),
);

authRoutes.post(
  "/login",
  doc({
    tags,
    summary: "Log in",
    description: "Exchanges email and password for a session token (7 days). Unknown email and wrong password give the same answer, in the same time.",
    caller: "none",
    input: "json",
    ok: { description: "Logged in", schema: loginResponse },
    errors: ["INVALID_CREDENTIALS", "ACCOUNT_SUSPENDED", "CHALLENGE_REQUIRED", "CHALLENGE_FAILED", "RATE_LIMITED"],
  }),
  ...jsonBody(z.object({ email, password: loginPasswordInput, challengeToken })),
  async (c) => {
    const { user, token } = await login(c.env, c.req.valid("json"), origin(c.req));
    return c.json({ data: publicUser(user), token });
  },
);

authRoutes.get("/me", doc({ tags, summary: "The current user", caller: "bearer", ok: { description: "The user", schema: meResponse } }), requireUser, (c) =>
  c.json({ data: publicUser(c.get("user")) }),
);

authRoutes.get(
  "/verify-email",
  doc({
    tags,
    summary: "Verify an email address",
    description: "The link emailed at registration. Redirects to the dashboard with `?verified=1`, or `?verify_error=invalid|expired`.",
    caller: "none",
    parameters: [{ in: "query", name: "token", required: true, schema: { type: "string" }, description: "The token from the emailed link (valid 24 hours)" }],
    ok: {
      status: 302,
      description: "Redirect to the dashboard",
      headers: { location: { schema: { type: "string" }, description: "`{DASHBOARD_URL}/?verified=1` or `?verify_error=invalid|expired`" } },
    },
  }),
  async (c) => c.redirect(await verifyEmail(c.env, c.req.query("token")), 302),
);

authRoutes.post(
  "/resend-verification",
  doc({
    tags,
    summary: "Send the verification link again",
    description: "One per minute per user.",
    caller: "bearer",
    ok: { description: "Sent (or not, when the mailer refused)", schema: resendResponse },
    errors: ["ALREADY_VERIFIED", "RATE_LIMITED"],
  }),
  requireUser,
  async (c) => c.json(await resendVerification(c.env, c.get("user"), origin(c.req))),
);

authRoutes.get(
  "/config",
  doc({
    tags,
    summary: "Public configuration",
    description: "Whether the bot challenge is required (and its site key) and which sign-in providers are on.",
    caller: "none",
    ok: { description: "The public configuration", schema: configResponse },
  }),
  (c) => c.json({ data: publicConfig(c.env) }),
);
