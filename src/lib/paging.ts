/**
 * Paging, the same everywhere (data lists, search, admin users, the credit ledger): `page` from 1,
 * `per_page` default 20, values above 100 served as 100 (the meta shows the size in effect).
 * Both are JSON integers; query strings are turned into integers only when they are plain decimal
 * digits (src/http/query.ts), so `0x10`, `1e3`, `+3` and ` 2 ` are refused.
 */
import { z } from "zod";

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;

const positiveInt = (name: string) => z.int({ error: `${name} must be a positive integer` }).positive(`${name} must be a positive integer`);

export const pageParams = {
  page: positiveInt("page").default(1).describe("Page number, from 1."),
  per_page: positiveInt("per_page")
    .default(DEFAULT_PER_PAGE)
    .describe(`Page size, default ${DEFAULT_PER_PAGE}; values above ${MAX_PER_PAGE} are treated as ${MAX_PER_PAGE}.`),
};

export type Paging = { page: number; per_page: number };

export const pageMeta = z.object({
  total: z.int().describe("Matching records"),
  page: z.int(),
  per_page: z.int().describe("Page size in effect"),
  total_pages: z.int().describe("ceil(total / per_page)"),
});
export type PageMeta = z.infer<typeof pageMeta>;

/** One page of a list, as a service returns it: the surfaces answer it as `{data: items, meta}` (http/answer.ts pageBody). */
export type PageOf<T> = { items: T[]; meta: PageMeta };

/** The rows a page asks for, and its meta once the total is known. */
export function pageWindow(p: Paging): { limit: number; offset: number; meta(total: number): PageMeta } {
  const perPage = Math.min(p.per_page, MAX_PER_PAGE);
  return {
    limit: perPage,
    offset: (p.page - 1) * perPage,
    meta: (total) => ({ total, page: p.page, per_page: perPage, total_pages: Math.ceil(total / perPage) }),
  };
}
