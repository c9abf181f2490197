ALTER TABLE `job_chunks` ADD `data_version` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `progress_at` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `settled_at` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `data_versions` text;--> statement-breakpoint
CREATE INDEX `jobs_state_idx` ON `jobs` (`state`,`progress_at`);