import { z } from "zod";
import { displayText } from "../lib/text";

/** A key's name, as the owner gives it (REST body and portal form). */
export const keyNameInput = displayText(1, 64);

export const keySchema = z
  .object({
    id: z.string().describe("`key_...`"),
    name: z.string(),
    prefix: z.string().describe("The first characters of the secret, to recognise it"),
    last4: z.string(),
    created_at: z.string().describe("ISO 8601, UTC"),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .meta({
    example: {
      id: "key_Qm3xT9vB2sLp8dKe",
      name: "my app",
      prefix: "wk_live_Ab3d",
      last4: "x9Zq",
      created_at: "2026-11-22T05:00:00.000Z",
      last_used_at: null,
      revoked_at: null,
    },
  });

export const keyListResponse = z.object({ data: z.array(keySchema) });
export const keyCreatedResponse = z.object({
  data: keySchema.extend({ key: z.string().describe("The secret: shown only in this answer. Send it as x-api-key.") }),
});
export const keyResponse = z.object({ data: keySchema });
