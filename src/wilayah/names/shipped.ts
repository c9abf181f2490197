/**
 * The name table shipped with the Worker: seed/name-table.json, written by the seed build from
 * seed/name-table.csv (scripts/seed/name-table.ts), parsed once per isolate. Apart from table.ts so
 * that scripts (plain Node, no JSON imports) can use the table's types and rules.
 */
import seedNameTable from "../../../seed/name-table.json";
import { NameTable, type NameTableJson } from "./table";

let shipped: NameTable | undefined;

export function nameTable(): NameTable {
  shipped ??= NameTable.fromJson(seedNameTable as NameTableJson);
  return shipped;
}
