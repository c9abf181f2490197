/** The shipped vocabulary and name table, for the tests of this folder. */
import seedNameTable from "../../../seed/name-table.json";
import seedVocabulary from "../../../seed/vocabulary.json";
import { WordList } from "./lexicon.ts";
import { NameTable, type NameTableJson } from "./table.ts";

export const shippedLexicon = WordList.fromText(seedVocabulary.text);
export const shippedTable = NameTable.fromJson(seedNameTable as NameTableJson);
