/** The shipped vocabulary and name table, for the tests of this folder. */
import seedVocabulary from "../../../seed/vocabulary.json";
import { parseVocabulary, WordList } from "./lexicon.ts";
import { nameTable } from "./shipped.ts";

export const shippedLexicon = new WordList(parseVocabulary(seedVocabulary.text));
export const shippedTable = nameTable();
