/**
 * GET /wilayah/changes.atom: the Atom feed of the editions of the region code list
 * (src/wilayah/history/feed.ts writes it). Public (no API key, not metered): it only says that the
 * list changed; the changes themselves are data calls. The editions change only with a seed, so the
 * feed is cached for an hour and carries the data version.
 */
import { Hono } from "hono";
import { publicRoute } from "../gate";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { changesFeed } from "../wilayah/history/feed";
import { DATA_VERSION } from "../wilayah/version";

const FEED_CACHE = "public, max-age=3600";

export const feedRoutes = new Hono<BaseEnv>();

feedRoutes.get(
  "/wilayah/changes.atom",
  doc({
    operationId: "changesFeed",
    tags: ["Regions"],
    summary: "Atom feed of the editions and their changes",
    description:
      "Public (no API key, not metered). One entry per edition of the code list, newest first, with its counts of changes by kind and level and a link to the paged changes. Cached for an hour; `x-data-version` names the data.",
    caller: "none",
    ok: { description: "Atom 1.0", media: { "application/atom+xml": "The feed" }, headers: { "x-data-version": { $ref: "#/components/headers/DataVersion" } } },
  }),
  publicRoute,
  async (c) => {
    const xml = await changesFeed(c.env, c.env.PUBLIC_API_URL.replace(/\/$/, "") || new URL(c.req.url).origin);
    return c.body(xml, 200, { "content-type": "application/atom+xml; charset=utf-8", "cache-control": FEED_CACHE, "x-data-version": DATA_VERSION });
  },
);
