-- Custom migration (drizzle-kit cannot express WITHOUT ROWID tables or partial indexes): the
-- indexes behind context, typo, code and postal-code search (issue 15; docs/api.md "Search").
-- All are filled by the seed (scripts/search-index.ts), inside D1, from `wilayah_search`.
--
-- `wilayah_anc`: (region, ancestor) pairs by `ord`, up to three per region. A query word that is
-- not part of the region's own name must match a word start in an ancestor's spellings:
-- `wilayah_grams_anc` answers that by point lookups (ancestors are provinsi/kabupaten/kecamatan);
-- `wilayah_grams_upper` first tells whether the word names any such region at all.
-- `wilayah_vocab`: every distinct word of every spelling, with the number of regions using it.
-- `wilayah_vocab_grams`: the trigrams of each word padded with two `#` on each side, with the
-- word's length: typo candidates are the words of a similar length sharing enough trigrams.
-- `wilayah_postal`: the villages of each 5-digit postal code (seed/sources/wilayah-postal-codes.csv).
CREATE TABLE `wilayah_anc` (
	`r` integer NOT NULL,
	`a` integer NOT NULL,
	PRIMARY KEY (`r`, `a`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `wilayah_vocab` (
	`w` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `wilayah_vocab_grams` (
	`g` text NOT NULL,
	`len` integer NOT NULL,
	`w` text NOT NULL,
	PRIMARY KEY (`g`, `len`, `w`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE TABLE `wilayah_postal` (
	`postal` text NOT NULL,
	`r` integer NOT NULL,
	PRIMARY KEY (`postal`, `r`)
) WITHOUT ROWID;--> statement-breakpoint
CREATE INDEX `wilayah_search_id` ON `wilayah_search` (`id`);--> statement-breakpoint
CREATE INDEX `wilayah_grams_anc` ON `wilayah_grams` (`r`, `s`) WHERE `k` < 2 AND `level` < 4;--> statement-breakpoint
-- The same word starts by text: does a query word start a word of any ancestor-level region at all?
CREATE INDEX `wilayah_grams_upper` ON `wilayah_grams` (`s`, `level`) WHERE `k` < 2 AND `level` < 4;--> statement-breakpoint
-- The new tables are empty until the seed is loaded again: make every loader see that it must.
DELETE FROM `dataset` WHERE `id` = 'wilayah';
