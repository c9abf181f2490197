import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../http/guards";
import type { AppEnv } from "../lib/types";
import { displayText, jsonBody } from "../lib/validate";
import { createKey, listKeys, revokeKey } from "./service";

/** Mounted at /user/keys: the signed-in developer's API keys. Auth is per route, so unknown paths and methods are 404/405 first. */
export const keyRoutes = new Hono<AppEnv>();
keyRoutes.get("/", requireUser, async (c) => c.json(await listKeys(c.env, c.get("user").id)));

keyRoutes.post("/", requireUser, ...jsonBody(z.object({ name: displayText(1, 64) })), async (c) =>
  c.json(await createKey(c.env, c.get("user"), c.req.valid("json").name), 201),
);

keyRoutes.delete("/:id", requireUser, async (c) => c.json(await revokeKey(c.env, c.get("user").id, c.req.param("id"))));
