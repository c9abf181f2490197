CREATE TABLE `wilayah_change` (
	`seq` integer PRIMARY KEY NOT NULL,
	`edition` integer NOT NULL,
	`level` integer NOT NULL,
	`change` text NOT NULL,
	`code_before` text,
	`name_before` text,
	`code_after` text,
	`name_after` text,
	`basis` text,
	`confidence` real
);
--> statement-breakpoint
CREATE INDEX `wilayah_change_before_idx` ON `wilayah_change` (`code_before`);--> statement-breakpoint
CREATE INDEX `wilayah_change_after_idx` ON `wilayah_change` (`code_after`);--> statement-breakpoint
CREATE TABLE `wilayah_change_run` (
	`edition` integer NOT NULL,
	`level` integer NOT NULL,
	`change` text NOT NULL,
	`first` integer NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`edition`, `level`, `change`)
);
--> statement-breakpoint
CREATE TABLE `wilayah_edition` (
	`id` text PRIMARY KEY NOT NULL,
	`ord` integer NOT NULL,
	`regulation` text NOT NULL,
	`provinsi` integer NOT NULL,
	`kabupaten` integer NOT NULL,
	`kecamatan` integer NOT NULL,
	`kelurahan` integer NOT NULL,
	`is_current` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wilayah_edition_ord_uq` ON `wilayah_edition` (`ord`);--> statement-breakpoint
CREATE TABLE `wilayah_former` (
	`r` integer PRIMARY KEY NOT NULL,
	`terms` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `wilayah_history` (
	`id` text PRIMARY KEY NOT NULL,
	`level` integer NOT NULL,
	`editions` integer NOT NULL,
	`names` text NOT NULL,
	`within` text
);
--> statement-breakpoint
CREATE TABLE `wilayah_successor` (
	`old_id` text NOT NULL,
	`new_id` text NOT NULL,
	`basis` text NOT NULL,
	`confidence` real NOT NULL,
	`via` text,
	PRIMARY KEY(`old_id`, `new_id`)
);
--> statement-breakpoint
CREATE INDEX `wilayah_successor_new_idx` ON `wilayah_successor` (`new_id`);