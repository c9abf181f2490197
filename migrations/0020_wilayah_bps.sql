CREATE TABLE `wilayah_bps` (
	`code` text PRIMARY KEY NOT NULL,
	`level` integer NOT NULL,
	`name` text,
	`period` text NOT NULL,
	`kemendagri_codes` text,
	`kemendagri_name` text,
	`current_id` text,
	`current_name` text,
	`match` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `wilayah_bps_current_idx` ON `wilayah_bps` (`current_id`,"period" DESC,`code`);--> statement-breakpoint
CREATE INDEX `wilayah_bps_period_idx` ON `wilayah_bps` (`period`);