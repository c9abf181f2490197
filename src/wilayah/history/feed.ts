/**
 * GET /wilayah/changes.atom: an Atom feed of the editions of the region code
 * list, newest first, one entry per edition with its counts of changes by kind and level, linking to
 * the paged changes (/api/v1/wilayah/changes). Public (no API key, not metered): it only says that the
 * list changed; the changes themselves are data calls. The editions change only with a seed, so the
 * feed is cached for an hour and carries the data version.
 */
import { Feed } from "feed";
import { Hono } from "hono";
import { regionReads } from "../../db/reads";
import type { BaseEnv } from "../../http/context";
import { doc } from "../../http/docs";
import { DATA_VERSION } from "../version";
import { type EditionSummary, editionSummaries } from "./service";

const FEED_CACHE = "public, max-age=3600";

/** The editions carry no publication date: an entry is dated by its edition's year (a second edition of a year, `2022b`, mid-year). */
function editionDate(id: string): Date {
  const year = Number(id.slice(0, 4));
  return new Date(Date.UTC(Number.isFinite(year) ? year : 2000, id.length > 4 ? 6 : 0, 1));
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

function summary(e: EditionSummary): string {
  if (!e.previous) return `The first edition the API knows (${e.regulation}).`;
  const kinds = Object.entries(e.counts.by_change)
    .map(([k, n]) => `${n.toLocaleString("en-US")} ${k}`)
    .join(", ");
  const levels = Object.entries(e.counts.by_level)
    .map(([k, n]) => `${n.toLocaleString("en-US")} ${k}`)
    .join(", ");
  return `${plural(e.counts.total, "change")} since edition ${e.previous} (${e.regulation}): ${kinds}. By level: ${levels}.`;
}

/** The Atom document; `origin` makes the links absolute. */
export async function changesFeed(env: Env, origin: string): Promise<string> {
  const editions = await editionSummaries(regionReads(env));
  const self = `${origin}/wilayah/changes.atom`;
  const feed = new Feed({
    id: self,
    title: "Wilayah API: editions of the region code list",
    description: "Each edition of the Kemendagri region code list and its changes (codes created, retired, renamed, recoded, split, merged).",
    link: `${origin}/docs/guide`,
    language: "en",
    updated: editions[0] ? editionDate(editions[0].id) : new Date(0),
    generator: "Wilayah API",
    copyright: "Data: idn-area-data (ODbL)",
    feedLinks: { atom: self },
  });
  for (const e of editions) {
    const link = `${origin}/api/v1/wilayah/changes?${e.previous ? `from=${e.previous}&` : ""}to=${e.id}`;
    const text = summary(e);
    feed.addItem({
      title: `Edition ${e.id}: ${e.regulation}${e.current ? " (current)" : ""}`,
      id: `urn:wilayah-api:edition:${e.id}`,
      link: e.previous ? link : `${origin}/api/v1/wilayah/editions`,
      date: editionDate(e.id),
      description: text,
      content: `${text} The changes, paged: ${e.previous ? link : "none (the first edition)"} (an API key in x-api-key).`,
    });
  }
  return feed.atom1();
}

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
  async (c) => {
    const xml = await changesFeed(c.env, c.env.PUBLIC_API_URL.replace(/\/$/, "") || new URL(c.req.url).origin);
    return c.body(xml, 200, { "content-type": "application/atom+xml; charset=utf-8", "cache-control": FEED_CACHE, "x-data-version": DATA_VERSION });
  },
);
