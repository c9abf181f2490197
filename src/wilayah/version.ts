import manifest from "../../seed/manifest.json";

/** The regulation (and package) the loaded data follows: the `x-data-version` header of every regional data answer. */
export const DATA_VERSION = manifest.dataVersion;
