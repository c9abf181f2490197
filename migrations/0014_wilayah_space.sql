-- Custom migration (drizzle-kit cannot express WITHOUT ROWID tables): the tables of issue 25
-- (nearby, neighbours, coverage), read with raw SQL by src/wilayah/{nearby,neighbors,coverage}/queries.ts.
-- All are filled by the seed (seed/wilayah.sql) and, for kelurahan/desa, by the boundary load
-- (scripts/seed/boundaries.ts); src/db/schema.ts describes them.
--
-- `wilayah_neighbor`: regions of the same level that share a border, one row per direction, so a
-- region's neighbours are one primary-key range. `shared_border_km` as measured by
-- scripts/seed/neighbours.ts (docs/neighbours-method.md).
--
-- `wilayah_point`: the centroids of the current regions with coordinates (`res` = -1, `cell` the
-- fine cell holding the centroid, `id`, `lat`, `lng`) and, above them, every occupied grid cell
-- of a pyramid (`res` 0 = the fine cell, each next `res` 4 x 4 of the one below; `id` '' and no
-- coordinates), per level. `/nearby` walks it best-first (src/wilayah/nearby/queries.ts).
-- Cells are numbered row * 10000 + column from 12° S, 94° E (src/wilayah/nearby/grid.ts).
--
-- `wilayah_gap`: the current regions that lack a field; `wilayah_coverage`: per level and field,
-- how many current regions there are and how many have it. Field names: coordinates, boundary,
-- postal_code, population, area.
CREATE TABLE `wilayah_neighbor` (
	`id` text NOT NULL,
	`neighbor_id` text NOT NULL,
	`level` integer NOT NULL,
	`shared_border_km` real NOT NULL,
	PRIMARY KEY (`id`, `neighbor_id`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `wilayah_point` (
	`level` integer NOT NULL,
	`res` integer NOT NULL,
	`cell` integer NOT NULL,
	`id` text NOT NULL,
	`lat` real,
	`lng` real,
	PRIMARY KEY (`level`, `res`, `cell`, `id`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `wilayah_gap` (
	`field` text NOT NULL,
	`level` integer NOT NULL,
	`id` text NOT NULL,
	PRIMARY KEY (`field`, `level`, `id`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `wilayah_coverage` (
	`level` integer NOT NULL,
	`field` text NOT NULL,
	`regions` integer NOT NULL,
	`covered` integer NOT NULL,
	PRIMARY KEY (`level`, `field`)
) WITHOUT ROWID;
