import { eq } from "drizzle-orm";
import { type RegionDb, regionDb } from "../../db/client";
import { dataset } from "../../db/schema";

/** The loaded wilayah data's version and checksum (the seed's `dataset` row; `npm run seed:apply` changes it in the swap's transaction). */
export async function loadedDataset(db: RegionDb): Promise<{ version: string; checksum: string } | undefined> {
  return db.select({ version: dataset.version, checksum: dataset.checksum }).from(dataset).where(eq(dataset.id, "wilayah")).get();
}

export const readLoadedDataset = (env: Env) => loadedDataset(regionDb(env));
