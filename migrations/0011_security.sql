CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`event` text NOT NULL,
	`actor_id` text,
	`subject_id` text,
	`ip` text,
	`request_id` text,
	`detail` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_subject_idx` ON `audit_events` (`subject_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_event_idx` ON `audit_events` (`event`,`id`);--> statement-breakpoint
CREATE INDEX `audit_actor_idx` ON `audit_events` (`actor_id`,`id`);--> statement-breakpoint
CREATE TABLE `login_failures` (
	`email_hash` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`locked_until` integer DEFAULT 0 NOT NULL,
	`last_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `password_resets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `revoked_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `revoked_sessions_expiry_idx` ON `revoked_sessions` (`expires_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `session_epoch` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `verification_sent_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `owner_proven` integer DEFAULT true NOT NULL;