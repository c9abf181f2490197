CREATE TABLE `usage_daily` (
	`user_id` text NOT NULL,
	`key_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`day` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`user_id`, `key_id`, `endpoint`, `day`)
);
--> statement-breakpoint
CREATE INDEX `usage_daily_day_idx` ON `usage_daily` (`day`);