/**
 * The Atom feed of the editions of the region code list (served at GET /wilayah/changes.atom by
 * src/routes/feed.ts), newest first, one entry per edition with its counts of changes by kind and
 * level, linking to the paged changes (/api/v1/wilayah/changes).
 */
import { Feed } from "feed";
import { regionReads } from "../../db/reads";
import { type EditionSummary, editionSummaries } from "./service";

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
