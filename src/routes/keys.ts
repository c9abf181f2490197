import { Hono } from "hono";
import { createApiKey } from "../account/keys";
import { revokeApiKey } from "../account/revocation";
import { requireUser } from "../gate";
import { type BaseEnv, requestMeta } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody } from "../http/validate";
import { createKeyInput, keyCreatedResponse, keyListResponse, keyResponse, rollKeyInput } from "../keys/schemas";
import { listKeys, rollKey } from "../keys/service";

/** Mounted at /user/keys: the signed-in developer's API keys. Auth is per route, so unknown paths and methods are 404/405 first. */
export const keyRoutes = new Hono<BaseEnv>();
const tags = ["Keys"];

keyRoutes.get(
  "/",
  doc({
    operationId: "listKeys",
    tags,
    summary: "List your API keys",
    description: "Newest first, revoked ones included. Secrets are never shown again.",
    caller: "bearer",
    ok: { description: "Your keys", schema: keyListResponse },
  }),
  requireUser,
  async (c) => c.json({ data: await listKeys(c.env, c.get("user").id) }),
);

keyRoutes.post(
  "/",
  doc({
    operationId: "createKey",
    tags,
    summary: "Create an API key",
    description:
      "Needs a verified email. The secret is in this answer only: store it. `kind`: `secret` (default, `wk_live_`, for servers) or `publishable` (`wk_pub_`, for web pages: everyone can read it, so it works only from its `allowed_origins`, only on the read-only data endpoints, and at its own `rate_limit_per_minute`). An optional `expires_at` ends any key. At most 20 active keys, and at most 30 key creations, rolls and revocations a minute (429 `RATE_LIMITED` with `Retry-After`).",
    caller: "bearer",
    input: "json",
    ok: { status: 201, description: "Created; `key` is the secret", schema: keyCreatedResponse },
    errors: ["EMAIL_NOT_VERIFIED", "KEY_LIMIT_REACHED", "RATE_LIMITED"],
  }),
  requireUser,
  ...jsonBody(createKeyInput),
  async (c) => c.json({ data: await createApiKey(c.env, c.get("user"), c.req.valid("json"), requestMeta(c)) }, 201),
);

keyRoutes.post(
  "/:id/roll",
  doc({
    operationId: "rollKey",
    tags,
    summary: "Roll an API key (a new secret)",
    description:
      "Gives the key a new secret, shown in this answer only; the key keeps its id, kind, origins and usage. The secret before keeps working for `grace_seconds` (0 to 604800, 7 days), then stops; a secret still in an earlier roll's grace stops now. `expires_at` sets a new expiry (null: none). Counts against the 30 key changes a minute.",
    caller: "bearer",
    parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" }, description: "The key's id (`key_...`)" }],
    input: "json",
    ok: { description: "Rolled; `key` is the new secret", schema: keyCreatedResponse },
    errors: ["NOT_FOUND", "KEY_REVOKED", "KEY_CHANGED", "RATE_LIMITED"],
  }),
  requireUser,
  ...jsonBody(rollKeyInput),
  async (c) => c.json({ data: await rollKey(c.env, c.get("user").id, c.req.param("id"), c.req.valid("json"), requestMeta(c)) }),
);

keyRoutes.delete(
  "/:id",
  doc({
    operationId: "revokeKey",
    tags,
    summary: "Revoke an API key",
    description:
      "Takes effect on the next request. Revoking an already revoked key changes nothing. At most 30 key creations, rolls and revocations a minute (429 `RATE_LIMITED` with `Retry-After`).",
    caller: "bearer",
    parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" }, description: "The key's id (`key_...`)" }],
    ok: { description: "The revoked key", schema: keyResponse },
    errors: ["NOT_FOUND", "RATE_LIMITED"],
  }),
  requireUser,
  async (c) => c.json({ data: await revokeApiKey(c.env, c.get("user").id, c.req.param("id"), requestMeta(c)) }),
);
