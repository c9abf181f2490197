CREATE TABLE `job_chunks` (
	`job_id` text NOT NULL,
	`chunk` integer NOT NULL,
	`rows` integer NOT NULL,
	`warned` integer NOT NULL,
	`done_at` integer NOT NULL,
	PRIMARY KEY(`job_id`, `chunk`)
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`key_id` text NOT NULL,
	`kind` text NOT NULL,
	`format` text NOT NULL,
	`column` text NOT NULL,
	`header` text,
	`state` text NOT NULL,
	`rows_total` integer NOT NULL,
	`rows_done` integer DEFAULT 0 NOT NULL,
	`rows_warned` integer DEFAULT 0 NOT NULL,
	`chunks_total` integer NOT NULL,
	`chunks_done` integer DEFAULT 0 NOT NULL,
	`input_bytes` integer NOT NULL,
	`credits` integer NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_user_idx` ON `jobs` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_expiry_idx` ON `jobs` (`expires_at`);