import { Hono } from "hono";
import { z } from "zod";
import type { AppContext, AppEnv } from "../lib/types";
import { displayText, jsonBody } from "../lib/validate";
import { requireUser } from "../http/guards";
import { login, publicConfig, register, resendVerification, verifyEmail } from "./service";
import { publicUser } from "./users";

export const authRoutes = new Hono<AppEnv>();

const origin = (c: AppContext) => ({ ip: c.req.header("cf-connecting-ip"), apiBaseUrl: new URL(c.req.url).origin });

const email = z.string().trim().toLowerCase().email("must be an email address").max(254);
const password = z.string().min(8, "at least 8 characters").max(128, "at most 128 characters");
const challengeToken = z.string().max(4096).optional();

authRoutes.post(
  "/register",
  ...jsonBody(z.object({ email, password, name: displayText(1, 100), challengeToken })),
  async (c) => c.json(await register(c.env, c.req.valid("json"), origin(c)), 201),
);

authRoutes.post("/login", ...jsonBody(z.object({ email, password: z.string().min(1).max(128), challengeToken })), async (c) => {
  const { user, token } = await login(c.env, c.req.valid("json"), origin(c));
  return c.json({ data: publicUser(user), token });
});

authRoutes.get("/me", requireUser, (c) => c.json({ data: publicUser(c.get("user")) }));

authRoutes.get("/verify-email", async (c) => c.redirect(await verifyEmail(c.env, c.req.query("token")), 302));

authRoutes.post("/resend-verification", requireUser, async (c) => c.json(await resendVerification(c.env, c.get("user"), origin(c))));

authRoutes.get("/config", (c) => c.json({ data: publicConfig(c.env) }));
