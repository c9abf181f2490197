/**
 * One language per page (issue 33, section 5): every page a person reads (the landing page, the
 * guides' chrome, each portal page signed in and out) is rendered in Indonesian and in English, and
 * its visible text holds no distinctive word of the other language. Code samples, API identifiers,
 * proper names (plans, the user's own name and email) and the documentation itself (English only,
 * marked `lang="en"`) are left out of the text checked.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, makeAdmin } from "../helpers";
import { Browser, signedUp } from "../portal/browser";

afterEach(() => vi.restoreAllMocks());

type Lang = "id" | "en";

/** Words that only the other language writes (whole words, case-insensitive). */
const FOREIGN: Record<Lang, string[]> = {
  // On an Indonesian page, none of these English words.
  id: ["the", "and", "calls", "month", "everything", "as amended", "your", "with", "minute", "sign in", "log in", "support"],
  // On an English page, none of these Indonesian words.
  en: ["dan", "yang", "panggilan", "bulan", "sebagaimana", "untuk", "dengan", "anda", "kunci", "masuk"],
};

/** Proper names a page may show in either language: plan names, the regulation's title, the product. */
const NAMES = [/\b(Free|Starter|Pro|Business)\b/g, /\bKepmendagri\b/g, /\bWilayah API\b/g];

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " " };

/** What a reader sees or hears: text outside code, plus placeholders, titles, labels and alt texts. */
function visibleText(html: string, lang: Lang, userData: string[] = []): string {
  const other = lang === "id" ? "en" : "id";
  // The head's title repeats the page's heading (a guide's: its English title), which the body shows.
  let s = html.replace(/<(head|script|style|pre|code|textarea|svg)\b[\s\S]*?<\/\1>/gi, " ");
  // Subtrees in the other language on purpose (the guides' documentation is written in English only).
  s = s.replace(new RegExp(`<(\\w+)\\b[^>]*\\slang="${other}"[^>]*>[\\s\\S]*?<\\/\\1>`, "g"), " ");
  const attributes = [...s.matchAll(/\s(?:placeholder|title|aria-label|alt)="([^"]*)"/g)].map((m) => m[1]);
  s = [s.replace(/<[^>]+>/g, " "), ...attributes].join(" ");
  s = s.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e]);
  for (const d of userData) s = s.replaceAll(d, " ");
  for (const n of NAMES) s = s.replace(n, " ");
  return s.replace(/\s+/g, " ");
}

function foreignWords(text: string, lang: Lang): string[] {
  const found: string[] = [];
  for (const w of FOREIGN[lang]) {
    const m = new RegExp(`(?<![\\p{L}\\p{N}_-])${w.replace(" ", "\\s+")}(?![\\p{L}\\p{N}_-])`, "iu").exec(text);
    if (m) found.push(`"${w}" in …${text.slice(Math.max(0, m.index - 50), m.index + 50)}…`);
  }
  return found;
}

// As a browser asks (`/status` answers JSON to anything else).
const accept = (lang: Lang) => ({ accept: "text/html,*/*;q=0.8", "accept-language": lang === "en" ? "en-US,en;q=0.9" : "id-ID,id;q=0.9" });

async function check(b: Browser | null, path: string, lang: Lang, userData: string[] = []) {
  const res = b ? await b.get(path, accept(lang)) : await call(path, { headers: accept(lang) });
  expect(res.status, `${path} (${lang})`).toBe(200);
  const html = await res.text();
  expect(html, path).toContain(`lang="${lang}"`);
  return foreignWords(visibleText(html, lang, userData), lang).map((f) => `${path} (${lang}): ${f}`);
}

const LANGS: Lang[] = ["id", "en"];

describe("one language per page", () => {
  it("the word lists catch the other language (the check is not blind)", () => {
    expect(foreignWords(visibleText('<p lang="id">Everything in Free</p>', "id"), "id")).toHaveLength(1);
    expect(foreignWords(visibleText("<p>50.000 panggilan per bulan</p>", "en"), "en")).toHaveLength(2);
    expect(foreignWords(visibleText("<pre>the</pre><code>and</code>", "id"), "id")).toEqual([]);
  });

  it("landing page and guides' chrome", async () => {
    const found: string[] = [];
    for (const lang of LANGS)
      for (const path of ["/", "/?q=a", "/?lat=91&lng=0", "/docs/guide", "/docs/guide/quick-start", "/status", "/map"])
        found.push(...(await check(null, path, lang)));
    expect(found).toEqual([]);
  });

  it("portal pages, signed out", async () => {
    const found: string[] = [];
    for (const lang of LANGS)
      for (const path of ["/portal/login", "/portal/signup", "/portal/forgot", "/portal/reset?token=x"])
        found.push(...(await check(new Browser(), path, lang)));
    expect(found).toEqual([]);
  });

  it("portal pages, signed in (a developer and an administrator)", async () => {
    const found: string[] = [];
    const { b, email, link } = await signedUp();
    await b.get(link.pathname + link.search);
    const admin = await makeAdmin();
    const a = new Browser();
    await a.get("/portal/login");
    await a.post("/portal/login", { email: admin.data.email, password: "correct horse" });
    for (const lang of LANGS) {
      for (const path of ["/portal/keys", "/portal/usage", "/portal/billing", "/portal/security", "/portal/addresses", "/portal/jobs", "/portal/webhooks"])
        found.push(...(await check(b, path, lang, [email, "Ani"])));
      found.push(...(await check(a, "/portal/admin", lang, [admin.data.email])));
    }
    expect(found).toEqual([]);
  });
});
