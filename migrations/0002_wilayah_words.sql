-- Custom migration: a word index for queries too short for trigrams (2 characters).
-- Contentless (it stores only the index): its rowids are those of `wilayah_search`, from which the
-- seed fills it. unicode61 splits words at every non-alphanumeric character; prefix='2' indexes
-- two-character word prefixes, so "an" finds every region with a word starting with "an" directly.
CREATE VIRTUAL TABLE `wilayah_words` USING fts5(
	terms,
	content = '',
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2'
);
