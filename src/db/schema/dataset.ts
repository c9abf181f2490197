/** The loaded dataset's version and checksum (src/wilayah/dataset): what every data answer names as its version. */
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Which dataset is loaded: the seed writes one row; `scripts/dev.ts` reads it to skip reloading. */
export const dataset = sqliteTable("dataset", {
  id: text("id").primaryKey(),
  version: text("version").notNull(),
  checksum: text("checksum").notNull(),
});
