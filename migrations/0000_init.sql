CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`last4` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_uq` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `dataset` (
	`id` text PRIMARY KEY NOT NULL,
	`version` text NOT NULL,
	`checksum` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `kabupaten` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`alt_name` text NOT NULL,
	`lat` real,
	`lng` real,
	`is_active` integer DEFAULT 1 NOT NULL,
	`provinsi_id` text NOT NULL,
	`type` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kabupaten_parent_idx` ON `kabupaten` (`provinsi_id`,`id`);--> statement-breakpoint
CREATE TABLE `kecamatan` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`alt_name` text NOT NULL,
	`lat` real,
	`lng` real,
	`is_active` integer DEFAULT 1 NOT NULL,
	`kabupaten_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kecamatan_parent_idx` ON `kecamatan` (`kabupaten_id`,`id`);--> statement-breakpoint
CREATE TABLE `kelurahan` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`alt_name` text NOT NULL,
	`lat` real,
	`lng` real,
	`is_active` integer DEFAULT 1 NOT NULL,
	`kecamatan_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `kelurahan_parent_idx` ON `kelurahan` (`kecamatan_id`,`id`);--> statement-breakpoint
CREATE TABLE `provinsi` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`alt_name` text NOT NULL,
	`lat` real,
	`lng` real,
	`is_active` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text NOT NULL,
	`plan` text DEFAULT 'free' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`email_verified` integer DEFAULT false NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);