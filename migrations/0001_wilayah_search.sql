-- Custom migration (drizzle-kit cannot express virtual tables): one FTS5 index over all four levels.
-- `terms` holds the normalised spellings of a region (name, alt_name, former names, short forms),
-- each on its own line; the other columns are stored, not indexed, so a search needs no join.
-- level: 1 provinsi, 2 kabupaten, 3 kecamatan, 4 kelurahan.
CREATE VIRTUAL TABLE `wilayah_search` USING fts5(
	terms,
	id UNINDEXED,
	level UNINDEXED,
	name UNINDEXED,
	alt_name UNINDEXED,
	parent UNINDEXED,
	is_active UNINDEXED,
	tokenize = 'trigram'
);
