CREATE TABLE `reports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`key_id` text NOT NULL,
	`region_id` text NOT NULL,
	`field` text NOT NULL,
	`value` text NOT NULL,
	`evidence_url` text,
	`evidence_regulation` text,
	`evidence_text` text,
	`notify_email` text,
	`status` text DEFAULT 'open' NOT NULL,
	`answer` text,
	`basis` text,
	`accepted_value` text,
	`duplicate_of` text,
	`created_at` integer NOT NULL,
	`reviewed_at` integer,
	`reviewed_by` text
);
--> statement-breakpoint
CREATE INDEX `reports_user_idx` ON `reports` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `reports_status_region_idx` ON `reports` (`status`,`region_id`);--> statement-breakpoint
CREATE INDEX `reports_region_idx` ON `reports` (`region_id`,`field`);--> statement-breakpoint
CREATE TABLE `wilayah_corrections` (
	`report_id` text PRIMARY KEY NOT NULL,
	`region_id` text NOT NULL,
	`level` integer NOT NULL,
	`field` text NOT NULL,
	`value_before` text,
	`value` text NOT NULL,
	`basis` text NOT NULL,
	`accepted_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `wilayah_corrections_region_idx` ON `wilayah_corrections` (`region_id`);