CREATE TABLE `account_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`spend_limit` integer,
	`low_credits_below` integer,
	`lang` text DEFAULT 'id' NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `usage_alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`kind` text NOT NULL,
	`level` integer NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL,
	`emailed_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `usage_alerts_once_uq` ON `usage_alerts` (`user_id`,`month`,`kind`,`level`);--> statement-breakpoint
CREATE INDEX `usage_alerts_user_idx` ON `usage_alerts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `billing_details` (
	`user_id` text PRIMARY KEY NOT NULL,
	`company_name` text,
	`npwp` text,
	`address` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `receipts` (
	`invoice_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`seq` integer NOT NULL,
	`issued_at` integer NOT NULL,
	`buyer_name` text NOT NULL,
	`buyer_email` text NOT NULL,
	`company_name` text,
	`npwp` text,
	`address` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `receipts_seq_uq` ON `receipts` (`seq`);--> statement-breakpoint
CREATE INDEX `receipts_user_idx` ON `receipts` (`user_id`,`seq`);