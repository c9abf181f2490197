/** Reads of `wilayah_source` and `wilayah_source_note` (src/db/schema.ts, "sources"; filled by the seed from scripts/seed/sources.ts). */
import { asc, eq } from "drizzle-orm";
import type { RegionDb } from "../../db/client";
import { wilayahSource, wilayahSourceNote } from "../../db/schema";

export type SourceRow = typeof wilayahSource.$inferSelect;
export type NoteRow = Pick<typeof wilayahSourceNote.$inferSelect, "family" | "kind" | "value" | "basis" | "sourceFile">;

/** Every source, in display order: a few dozen rows. */
export async function sourceRows(db: RegionDb): Promise<SourceRow[]> {
  return db.select().from(wilayahSource).orderBy(asc(wilayahSource.ord));
}

/** One region's hand corrections: a range of the primary key. */
export async function noteRows(db: RegionDb, regionId: string): Promise<NoteRow[]> {
  return db
    .select({
      family: wilayahSourceNote.family,
      kind: wilayahSourceNote.kind,
      value: wilayahSourceNote.value,
      basis: wilayahSourceNote.basis,
      sourceFile: wilayahSourceNote.sourceFile,
    })
    .from(wilayahSourceNote)
    .where(eq(wilayahSourceNote.regionId, regionId));
}
