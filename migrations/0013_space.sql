ALTER TABLE `kabupaten` ADD `population_male` integer;--> statement-breakpoint
ALTER TABLE `kabupaten` ADD `population_female` integer;--> statement-breakpoint
ALTER TABLE `kabupaten` ADD `population_total` integer;--> statement-breakpoint
ALTER TABLE `kabupaten` ADD `area_km2` real;--> statement-breakpoint
ALTER TABLE `provinsi` ADD `population_male` integer;--> statement-breakpoint
ALTER TABLE `provinsi` ADD `population_female` integer;--> statement-breakpoint
ALTER TABLE `provinsi` ADD `population_total` integer;--> statement-breakpoint
ALTER TABLE `provinsi` ADD `area_km2` real;