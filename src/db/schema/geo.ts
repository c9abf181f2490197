/** Boundaries and the reverse-geocoding index (src/wilayah/geo), and the space tables that live in custom migrations. Read-only between seeds. */
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Region boundaries (src/wilayah/geo/geometry.ts describes `data`). A boundary longer than a D1 statement
 * allows is split over rows (`part` 0, 1, ...) that concatenate to the whole; `level` 1-4.
 * Provinsi to kecamatan come with the seed, kelurahan/desa from their own load (scripts/seed/boundaries.ts).
 */
export const wilayahShape = sqliteTable(
  "wilayah_shape",
  {
    id: text("id").notNull(),
    part: integer("part").notNull(),
    level: integer("level").notNull(),
    data: text("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.id, t.part] }), index("wilayah_shape_level_idx").on(t.level)],
);

/** Bounding box of each boundary (degrees). */
export const wilayahBbox = sqliteTable(
  "wilayah_bbox",
  {
    id: text("id").primaryKey(),
    level: integer("level").notNull(),
    minLng: real("min_lng").notNull(),
    minLat: real("min_lat").notNull(),
    maxLng: real("max_lng").notNull(),
    maxLat: real("max_lat").notNull(),
  },
  (t) => [index("wilayah_bbox_level_idx").on(t.level)],
);

/**
 * Candidate index for reverse geocoding: one row per grid cell (GRID_CELL in src/wilayah/geo/geometry.ts)
 * that a kecamatan's or kelurahan's bounding box touches, with the box, so a point reads only the
 * regions of its own cell whose box holds it. Built inside SQLite from `wilayah_bbox` by the seed.
 */
export const wilayahGrid = sqliteTable(
  "wilayah_grid",
  {
    level: integer("level").notNull(),
    cell: integer("cell").notNull(),
    id: text("id").notNull(),
    minLng: real("min_lng").notNull(),
    minLat: real("min_lat").notNull(),
    maxLng: real("max_lng").notNull(),
    maxLat: real("max_lat").notNull(),
  },
  (t) => [primaryKey({ columns: [t.level, t.cell, t.id] })],
);

/*
 * Space tables (issue 25), in the custom migration 0014_wilayah_space.sql (WITHOUT ROWID tables,
 * which drizzle-kit cannot express), read with raw SQL by src/wilayah/space/queries.ts:
 *
 * - `wilayah_neighbor (id, neighbor_id, level, shared_border_km)`, primary key (id, neighbor_id):
 *   regions of the same level that share a border, one row per direction, so `/{id}/neighbors` is
 *   one primary-key range. Built by scripts/seed/neighbours.ts (provinsi to kecamatan in
 *   seed/wilayah.sql; kelurahan/desa from seed/neighbours-kelurahan.csv.gz with their boundaries).
 *   A region without a boundary has no rows: unknown, not "none" (docs/neighbours-method.md).
 * - `wilayah_point (level, cell, id, lat, lng)`, primary key (level, cell, id): the centroid of
 *   every current region with coordinates, keyed by its grid cell (POINT_CELL in
 *   src/wilayah/space/grid.ts), for `/nearby`. Built inside SQLite by the seed.
 * - `wilayah_gap (field, level, id)`, primary key (field, level, id): the current regions that lack
 *   a field (coordinates, boundary, postal_code, population, area, bps_code), and `wilayah_coverage (level,
 *   field, regions, covered)`: the counts per level. Rebuilt in SQL at the end of the seed and of
 *   the kelurahan boundary load, so they describe what is loaded.
 */
