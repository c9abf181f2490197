-- Custom migration: typo candidates now come from the vocabulary shipped with the Worker
-- (seed/vocabulary.json, src/wilayah/vocabulary.ts), so D1's copy of the words and their trigrams
-- (created by 0009) is no longer read. The seed no longer fills them. On a running deployment,
-- deploy the Worker first, then apply this (README, "Upgrading a running deployment").
DROP TABLE IF EXISTS `wilayah_vocab_grams`;--> statement-breakpoint
DROP TABLE IF EXISTS `wilayah_vocab`;
