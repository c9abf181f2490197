-- Custom migration (drizzle-kit cannot express partial indexes): whole terms of the search index by
-- their text, for the address resolver (src/wilayah/addresses/queries.ts, issue 24), which looks up
-- every phrase of a batch of addresses as a whole term (`s = phrase || U+001F AND k = 0`).
--
-- Why: `wilayah_grams` is keyed by suffix (`s`, `r`), so the key's range for `barat␟` holds every
-- spelling that ends in `barat` (thousands), of which a handful are the term `barat` itself (k = 0).
-- Measured in D1: one complete address read about 1,100 rows through the primary key; the partial
-- index holds the term starts only (about 97,000 of 869,000 rows) and covers the lookup.
-- No data changes: the seed need not be loaded again.
CREATE INDEX `wilayah_grams_terms` ON `wilayah_grams` (`s`, `is_active`) WHERE `k` = 0;
