ALTER TABLE `api_keys` ADD `kind` text DEFAULT 'secret' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `allowed_origins` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `rate_limit_per_minute` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `last_used_origin` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `previous_key_hash` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `previous_until` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_previous_hash_uq` ON `api_keys` (`previous_key_hash`);