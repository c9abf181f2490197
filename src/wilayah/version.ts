import manifest from "../../seed/manifest.json";
import type { DataVersion } from "../data/endpoint";
import { loadedDataset, loadedDatasetOf, loadedDatasetStatement } from "./dataset/queries";

/** The regulation (and package) the bundled seed follows: what the pages and the API document name. */
export const DATA_VERSION = manifest.dataVersion;

/**
 * The `x-data-version` of every regional data answer: the version of the data the answer was read
 * from, as D1 holds it (a seed apply swaps data and version in one transaction, before the Worker
 * bundling the new seed is deployed). The bundle's version stands in only when D1 has no row (an
 * empty database).
 */
export const WILAYAH_DATA: DataVersion = {
  fallback: DATA_VERSION,
  async read(db) {
    return (await loadedDataset(db)) ?? EMPTY;
  },
  ride: { statement: loadedDatasetStatement, loaded: (result) => loadedDatasetOf(result) ?? EMPTY },
};

/** What an empty database (no dataset row) answers as. */
const EMPTY = { version: DATA_VERSION, checksum: manifest.checksum };
