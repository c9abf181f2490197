/** The four region tables, one per level (src/wilayah/regions owns them; read by every regional room). Read-only between seeds. */
import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

const regionColumns = {
  id: text("id").primaryKey(), // Kemendagri code with dots: 32.73.09.1001
  code: text("code").notNull(), // the same code without dots: 3273091001
  name: text("name").notNull(),
  altName: text("alt_name").notNull(),
  lat: real("lat"),
  lng: real("lng"),
  isActive: integer("is_active").notNull().default(1),
};

/**
 * Population and area of provinsi and kabupaten/kota (seed/sources/wilayah-population.csv and
 * wilayah-area.csv, cahyadsn/wilayah, MIT): people by sex and in total (the source states no
 * reference date for the counts), area in km². Null where the source has no figure.
 */
const statsColumns = {
  populationMale: integer("population_male"),
  populationFemale: integer("population_female"),
  populationTotal: integer("population_total"),
  areaKm2: real("area_km2"),
};

export const provinsi = sqliteTable("provinsi", { ...regionColumns, ...statsColumns });

export const kabupaten = sqliteTable(
  "kabupaten",
  {
    ...regionColumns,
    ...statsColumns,
    provinsiId: text("provinsi_id").notNull(),
    type: text("type", { enum: ["kabupaten", "kota"] }).notNull(),
  },
  (t) => [index("kabupaten_parent_idx").on(t.provinsiId, t.id)],
);

export const kecamatan = sqliteTable("kecamatan", { ...regionColumns, kabupatenId: text("kabupaten_id").notNull() }, (t) => [
  index("kecamatan_parent_idx").on(t.kabupatenId, t.id),
]);

export const kelurahan = sqliteTable(
  "kelurahan",
  {
    ...regionColumns,
    kecamatanId: text("kecamatan_id").notNull(),
    postalCode: text("postal_code"), // kode pos, 5 digits; null only for retired codes
  },
  (t) => [index("kelurahan_parent_idx").on(t.kecamatanId, t.id), index("kelurahan_postal_idx").on(t.postalCode, t.id)],
);
