CREATE TABLE `wilayah_source` (
	`id` text PRIMARY KEY NOT NULL,
	`ord` integer NOT NULL,
	`kind` text NOT NULL,
	`families` text NOT NULL,
	`name` text NOT NULL,
	`url` text,
	`version` text,
	`date` text,
	`licence` text,
	`licence_url` text,
	`attribution` text NOT NULL,
	`edition` text,
	`files` text,
	`processing` text,
	`note` text
);
--> statement-breakpoint
CREATE TABLE `wilayah_source_note` (
	`region_id` text NOT NULL,
	`family` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`basis` text NOT NULL,
	`source_file` text NOT NULL,
	PRIMARY KEY(`region_id`, `family`, `kind`, `value`)
);
