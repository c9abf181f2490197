/**
 * The contract's list envelope around a page a service returns: services return pages
 * (`PageOf`, lib/paging.ts), and what a page looks like on the wire is the surface's business.
 */
import type { PageOf } from "../lib/paging";

export const pageBody = <T>(page: PageOf<T>) => ({ data: page.items, meta: page.meta });
