/** Postal codes: the villages of a code. Knows nothing of HTTP. */
import type { RegionDb } from "../../db/client";
import { ApiError } from "../../lib/errors";
import { type PageMeta, type Paging, pageWindow } from "../../lib/paging";
import { type PostalVillageRow, villagesByPostalCode } from "./queries";

export async function villagesOfPostalCode(db: RegionDb, code: string, paging: Paging): Promise<{ data: PostalVillageRow[]; meta: PageMeta }> {
  const postal = code;
  if (!/^\d{5}$/.test(postal)) {
    throw new ApiError("INVALID_QUERY", "A postal code (kode pos) is exactly 5 digits, e.g. 40114.", {
      details: [{ path: "code", message: "must be 5 digits" }],
    });
  }
  const w = pageWindow(paging);
  const { total, rows } = await villagesByPostalCode(db, postal, w.limit, w.offset);
  if (total === 0) throw new ApiError("NOT_FOUND", `No kelurahan/desa has the postal code ${postal}.`);
  return { data: rows, meta: w.meta(total) };
}
