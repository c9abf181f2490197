import { eq } from "drizzle-orm";
import type { RegionDb } from "../../db/client";
import { compiledSelect } from "../../db/compiled";
import { dataset } from "../../db/schema";

/** The loaded wilayah data's version and checksum (the seed's `dataset` row; `npm run seed:apply` changes it in the swap's transaction). */
export async function loadedDataset(db: RegionDb): Promise<{ version: string; checksum: string } | undefined> {
  return (await LOADED.all(db, {}))[0];
}

/** Read by every uncached data answer (src/data/run.ts): rendered once (src/db/compiled.ts). */
const LOADED = compiledSelect<{ version: string; checksum: string }, never>({ version: dataset.version, checksum: dataset.checksum }, (db) =>
  db.select({ version: dataset.version, checksum: dataset.checksum }).from(dataset).where(eq(dataset.id, "wilayah")).limit(1),
);

/** The same read for a handler's own batch (src/data/reads.ts). */
export const loadedDatasetStatement = (db: RegionDb) => LOADED.statement(db, {});
export const loadedDatasetOf = (result: D1Result) => LOADED.rows(result)[0];
