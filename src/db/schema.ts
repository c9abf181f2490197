/**
 * The one schema, one file per owning capability under schema/ (each table belongs to one room:
 * docs/architecture.md). `migrations/` is generated from it with drizzle-kit (`npm run db:generate`);
 * the search tables (`wilayah_search`, and the suffix index `wilayah_grams`, a WITHOUT ROWID table
 * drizzle cannot express) live in custom drizzle-kit migrations (0006_wilayah_grams.sql) and are
 * read with raw SQL in src/wilayah/search/queries.ts; the space tables likewise (schema/geo.ts).
 * A new capability's tables: a file of its own here, and one line below.
 */
export * from "./schema/alerts";
export * from "./schema/audit";
export * from "./schema/auth";
export * from "./schema/billing";
export * from "./schema/bps";
export * from "./schema/corrections";
export * from "./schema/dataset";
export * from "./schema/geo";
export * from "./schema/history";
export * from "./schema/islands";
export * from "./schema/jobs";
export * from "./schema/keys";
export * from "./schema/receipts";
export * from "./schema/regions";
export * from "./schema/reports";
export * from "./schema/search";
export * from "./schema/sources";
export * from "./schema/usage";
export * from "./schema/webhooks";
