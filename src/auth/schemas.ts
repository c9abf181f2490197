/** What the auth routes answer: the contract's User, registration, login and public config. */
import { z } from "zod";

export const userSchema = z
  .object({
    id: z.string().describe("`user_...`"),
    email: z.string(),
    name: z.string(),
    plan: z.string().describe("free, starter, pro, business or internal"),
    status: z.enum(["active", "suspended"]),
    email_verified: z.boolean(),
  })
  .meta({ example: { id: "user_x8Kq2mVn4pLr7tWc", email: "ani@example.com", name: "Ani", plan: "free", status: "active", email_verified: true } });

export const registerResponse = z.object({
  data: z.object({ id: z.string(), email: z.string(), email_verified: z.literal(false) }),
  email_verification_sent: z.boolean().describe("Whether the mailer accepted the verification message"),
  token: z.string().describe("Session token (JWT, 7 days)"),
});

export const loginResponse = z.object({ data: userSchema, token: z.string().describe("Session token (JWT, 7 days)") });
export const meResponse = z.object({ data: userSchema });
export const resendResponse = z.object({ data: z.object({ email_verification_sent: z.boolean() }) });
export const configResponse = z.object({
  data: z.object({
    challenge_site_key: z.string().describe("Site key for the bot-challenge widget (empty when none)"),
    challenge_required: z.boolean(),
    google_oauth_enabled: z.boolean(),
    github_oauth_enabled: z.boolean(),
  }),
});
export const logoutResponse = z.object({ data: z.object({ logged_out: z.literal(true) }) });
export const logoutAllResponse = z.object({ data: z.object({ sessions_ended: z.literal(true) }) });
export const forgotResponse = z.object({ data: z.object({ message: z.string() }) });
export const resetResponse = z.object({
  data: z.object({
    password_reset: z.literal(true),
    sessions_ended: z.literal(true),
    takeover: z.boolean().describe("The account had been set up by someone who never proved they own the email: its earlier keys were revoked"),
    keys_revoked: z.int().describe("Keys revoked by the takeover (0 otherwise)"),
    email: z.string(),
  }),
});
