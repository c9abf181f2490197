CREATE TABLE `pulau` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`name_search` text NOT NULL,
	`kabupaten_id` text,
	`provinsi_id` text NOT NULL,
	`lat` real,
	`lng` real,
	`is_populated` integer NOT NULL,
	`is_outermost_small` integer NOT NULL,
	`is_active` integer DEFAULT 1 NOT NULL,
	`replaced_by` text
);
--> statement-breakpoint
CREATE INDEX `pulau_kabupaten_idx` ON `pulau` (`kabupaten_id`,`id`);--> statement-breakpoint
CREATE INDEX `pulau_provinsi_idx` ON `pulau` (`provinsi_id`,`id`);--> statement-breakpoint
CREATE TABLE `wilayah_bbox` (
	`id` text PRIMARY KEY NOT NULL,
	`level` integer NOT NULL,
	`min_lng` real NOT NULL,
	`min_lat` real NOT NULL,
	`max_lng` real NOT NULL,
	`max_lat` real NOT NULL
);
--> statement-breakpoint
CREATE INDEX `wilayah_bbox_level_idx` ON `wilayah_bbox` (`level`);--> statement-breakpoint
CREATE TABLE `wilayah_grid` (
	`level` integer NOT NULL,
	`cell` integer NOT NULL,
	`id` text NOT NULL,
	`min_lng` real NOT NULL,
	`min_lat` real NOT NULL,
	`max_lng` real NOT NULL,
	`max_lat` real NOT NULL,
	PRIMARY KEY(`level`, `cell`, `id`)
);
--> statement-breakpoint
CREATE TABLE `wilayah_shape` (
	`id` text NOT NULL,
	`part` integer NOT NULL,
	`level` integer NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`id`, `part`)
);
--> statement-breakpoint
CREATE INDEX `wilayah_shape_level_idx` ON `wilayah_shape` (`level`);--> statement-breakpoint
ALTER TABLE `kelurahan` ADD `postal_code` text;--> statement-breakpoint
CREATE INDEX `kelurahan_postal_idx` ON `kelurahan` (`postal_code`,`id`);