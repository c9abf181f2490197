import { z } from "zod";
import { displayText } from "../lib/text";
import { KEY_RATE_TIERS, MAX_ORIGINS, originProblem } from "./publishable";

/** A key's name, as the owner gives it (REST body and portal form). */
export const keyNameInput = displayText(1, 64);

/** Longest grace a rolled secret may have. */
export const MAX_GRACE_SECONDS = 7 * 86_400;

const allowedOrigin = z.string().superRefine((v, ctx) => {
  const problem = originProblem(v);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

const rateTier = z
  .number()
  .refine((n) => (KEY_RATE_TIERS as readonly number[]).includes(n), { message: `one of ${KEY_RATE_TIERS.join(", ")} (calls per minute)` });

const expiry = z.iso.datetime({ offset: true }).nullable().optional().describe("ISO 8601; when the key stops working. Null or absent: never.");

/** `POST /user/keys` (and the portal's form, which builds the same object). */
export const createKeyInput = z
  .object({
    name: keyNameInput,
    kind: z
      .enum(["secret", "publishable"])
      .default("secret")
      .describe("`secret` (default, `wk_live_`, servers only) or `publishable` (`wk_pub_`, for web pages)"),
    allowed_origins: z
      .array(allowedOrigin)
      .min(1)
      .max(MAX_ORIGINS)
      .optional()
      .describe("Publishable keys (required): the origins that may use it, `https://shop.example.com` or `https://*.example.com`"),
    rate_limit_per_minute: rateTier
      .optional()
      .describe(`Publishable keys: this key's own calls per minute, one of ${KEY_RATE_TIERS.join(", ")}, at most the plan's (default 30)`),
    expires_at: expiry,
  })
  .superRefine((v, ctx) => {
    if (v.kind === "publishable" && !v.allowed_origins)
      ctx.addIssue({ code: "custom", path: ["allowed_origins"], message: "a publishable key needs its allowed origins" });
    if (v.kind === "secret" && v.allowed_origins)
      ctx.addIssue({ code: "custom", path: ["allowed_origins"], message: "only a publishable key has allowed origins (a secret key never goes to a browser)" });
    if (v.kind === "secret" && v.rate_limit_per_minute !== undefined)
      ctx.addIssue({ code: "custom", path: ["rate_limit_per_minute"], message: "only a publishable key has its own rate (a secret key has its plan's)" });
  });
export type CreateKeyInput = z.infer<typeof createKeyInput>;

/** `POST /user/keys/:id/roll`. */
export const rollKeyInput = z.object({
  grace_seconds: z.int().min(0).max(MAX_GRACE_SECONDS).describe("How long the secret before keeps working, in seconds: 0 (stops now) to 604800 (7 days)"),
  expires_at: expiry.describe("A new expiry for the key (ISO 8601), or null for none. Absent: the key keeps its expiry."),
});
export type RollKeyInput = z.infer<typeof rollKeyInput>;

export const keySchema = z
  .object({
    id: z.string().describe("`key_...`"),
    name: z.string(),
    kind: z.enum(["secret", "publishable"]),
    prefix: z.string().describe("The first characters of the secret, to recognise it"),
    last4: z.string(),
    allowed_origins: z.array(z.string()).nullable().describe("Publishable keys: the origins it answers"),
    rate_limit_per_minute: z.int().nullable().describe("Publishable keys: its own calls per minute"),
    created_at: z.string().describe("ISO 8601, UTC"),
    expires_at: z.string().nullable(),
    last_used_at: z.string().nullable().describe("Written about once a minute, not on every call"),
    last_used_origin: z.string().nullable().describe("The Origin (or Referer's origin) of the latest call; null when it sent none"),
    previous_secret_until: z.string().nullable().describe("After a roll: until when the secret before still works"),
    revoked_at: z.string().nullable(),
  })
  .meta({
    example: {
      id: "key_Qm3xT9vB2sLp8dKe",
      name: "my app",
      kind: "secret",
      prefix: "wk_live_Ab3d",
      last4: "x9Zq",
      allowed_origins: null,
      rate_limit_per_minute: null,
      created_at: "2026-11-22T05:00:00.000Z",
      expires_at: null,
      last_used_at: null,
      last_used_origin: null,
      previous_secret_until: null,
      revoked_at: null,
    },
  });

export const keyListResponse = z.object({ data: z.array(keySchema) });
export const keyCreatedResponse = z.object({
  data: keySchema.extend({ key: z.string().describe("The secret: shown only in this answer. Send it as x-api-key.") }),
});
export const keyResponse = z.object({ data: keySchema });
