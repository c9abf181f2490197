-- Custom migration (drizzle-kit cannot express WITHOUT ROWID tables or partial covering indexes):
-- search moves from FTS5 to a suffix index.
--
-- Why: FTS5 trigram queries load the whole doclist of every trigram of the query, and names are
-- made of a few very common trigrams (ang, ung, an , tan): `bandung` cost 1.1 ms, `ang` 62 ms in
-- SQLite, mostly ranking every match. A B-tree of suffixes answers "starts with q" by a range
-- scan that touches only the matches, and knows at which kind of position each match starts
-- (term start, word start, inside a word), which is the ranking tier.
--
-- `wilayah_search`: one row per region. `ord` is the region's place in (level, name, id) order,
-- assigned by the seed build, so ties within a ranking tier sort by `ord` alone.
-- `terms`: the region's normalised spellings (name, alt_name, former names, short forms), each
-- between U+001F separators.
--
-- `wilayah_grams`: one row per (suffix, region). `s` is the text from a position in `terms` up to
-- and including the end of that term's U+001F, so `s = q || char(31)` is an exact term. Positions
-- at spaces and separators are left out (a normalised query never starts with either).
-- `k`: 0 the position starts a term, 1 it starts a word (follows an ASCII character other than
-- a-z 0-9), 2 inside a word. `level` and `is_active` are copied so that counting needs no join.
-- The seed fills it from `wilayah_search` (seed/wilayah.sql).
--
-- `wilayah_short`: the answers to every short query, kept ranked. Short queries match the most
-- regions (`ang`: 15,600), so ranking them at query time is what costs. Per region:
--   p of 2 letters/digits: the first two characters of each of its words (2-letter queries match
--   word starts only), tier 0 a whole term is p, 1 a term starts with p, 2 a word does;
--   p of 3 characters: each 3-character substring, tiers as above plus 3 for inside a word.
-- Read in key order it is already sorted: no grouping, no sort, and the count is a range count.
-- The seed fills it from `wilayah_grams`.
DROP TABLE IF EXISTS `wilayah_words`;--> statement-breakpoint
DROP TABLE IF EXISTS `wilayah_search`;--> statement-breakpoint
CREATE TABLE `wilayah_search` (
	`ord` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`level` integer NOT NULL,
	`name` text NOT NULL,
	`alt_name` text NOT NULL,
	`parent` text,
	`is_active` integer NOT NULL,
	`terms` text NOT NULL
);--> statement-breakpoint
CREATE TABLE `wilayah_grams` (
	`s` text NOT NULL,
	`r` integer NOT NULL,
	`k` integer NOT NULL,
	`level` integer NOT NULL,
	`is_active` integer NOT NULL,
	PRIMARY KEY (`s`, `r`)
) WITHOUT ROWID;--> statement-breakpoint
-- Word and term starts only: the first tiers of every ranking.
CREATE INDEX `wilayah_grams_words` ON `wilayah_grams` (`s`, `r`, `k`, `level`, `is_active`) WHERE `k` < 2;--> statement-breakpoint
CREATE TABLE `wilayah_short` (
	`p` text NOT NULL,
	`tier` integer NOT NULL,
	`r` integer NOT NULL,
	`level` integer NOT NULL,
	`is_active` integer NOT NULL,
	PRIMARY KEY (`p`, `tier`, `r`)
) WITHOUT ROWID;--> statement-breakpoint
-- The search tables are empty until the seed is loaded again: make every loader see that it must.
DELETE FROM `dataset` WHERE `id` = 'wilayah';
