import { Hono } from "hono";
import { z } from "zod";
import { revokeApiKey } from "../account/revocation";
import { requireUser } from "../auth/guards";
import { type BaseEnv, requestMeta } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody } from "../http/validate";
import { keyCreatedResponse, keyListResponse, keyNameInput, keyResponse } from "../keys/schemas";
import { createKey, listKeys } from "../keys/service";

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
      "Needs a verified email. The secret is in this answer only: store it. At most 20 active keys, and at most 30 key creations and revocations a minute (429 `RATE_LIMITED` with `Retry-After`).",
    caller: "bearer",
    input: "json",
    ok: { status: 201, description: "Created; `key` is the secret", schema: keyCreatedResponse },
    errors: ["EMAIL_NOT_VERIFIED", "KEY_LIMIT_REACHED", "RATE_LIMITED"],
  }),
  requireUser,
  ...jsonBody(z.object({ name: keyNameInput })),
  async (c) => c.json({ data: await createKey(c.env, c.get("user"), c.req.valid("json").name, requestMeta(c)) }, 201),
);

keyRoutes.delete(
  "/:id",
  doc({
    operationId: "revokeKey",
    tags,
    summary: "Revoke an API key",
    description:
      "Takes effect on the next request. Revoking an already revoked key changes nothing. At most 30 key creations and revocations a minute (429 `RATE_LIMITED` with `Retry-After`).",
    caller: "bearer",
    parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" }, description: "The key's id (`key_...`)" }],
    ok: { description: "The revoked key", schema: keyResponse },
    errors: ["NOT_FOUND", "RATE_LIMITED"],
  }),
  requireUser,
  async (c) => c.json({ data: await revokeApiKey(c.env, c.get("user").id, c.req.param("id"), requestMeta(c)) }),
);
