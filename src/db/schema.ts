/**
 * The one schema. `migrations/` is generated from this file with drizzle-kit
 * (`npm run db:generate`); the search tables (`wilayah_search`, and the suffix index
 * `wilayah_grams`, a WITHOUT ROWID table drizzle cannot express) live in custom drizzle-kit
 * migrations (0006_wilayah_grams.sql) and are read with raw SQL in src/wilayah/search/queries.ts.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// ---------------------------------------------------------------- wilayah (read-only between seeds)

const regionColumns = {
  id: text("id").primaryKey(), // Kemendagri code with dots: 32.73.09.1001
  code: text("code").notNull(), // the same code without dots: 3273091001
  name: text("name").notNull(),
  altName: text("alt_name").notNull(),
  lat: real("lat"),
  lng: real("lng"),
  isActive: integer("is_active").notNull().default(1),
};

/**
 * Population and area of provinsi and kabupaten/kota (seed/sources/wilayah-population.csv and
 * wilayah-area.csv, cahyadsn/wilayah, MIT): people by sex and in total (the source states no
 * reference date for the counts), area in km². Null where the source has no figure.
 */
const statsColumns = {
  populationMale: integer("population_male"),
  populationFemale: integer("population_female"),
  populationTotal: integer("population_total"),
  areaKm2: real("area_km2"),
};

export const provinsi = sqliteTable("provinsi", { ...regionColumns, ...statsColumns });

export const kabupaten = sqliteTable(
  "kabupaten",
  {
    ...regionColumns,
    ...statsColumns,
    provinsiId: text("provinsi_id").notNull(),
    type: text("type", { enum: ["kabupaten", "kota"] }).notNull(),
  },
  (t) => [index("kabupaten_parent_idx").on(t.provinsiId, t.id)],
);

export const kecamatan = sqliteTable("kecamatan", { ...regionColumns, kabupatenId: text("kabupaten_id").notNull() }, (t) => [
  index("kecamatan_parent_idx").on(t.kabupatenId, t.id),
]);

export const kelurahan = sqliteTable(
  "kelurahan",
  {
    ...regionColumns,
    kecamatanId: text("kecamatan_id").notNull(),
    postalCode: text("postal_code"), // kode pos, 5 digits; null only for retired codes
  },
  (t) => [index("kelurahan_parent_idx").on(t.kecamatanId, t.id), index("kelurahan_postal_idx").on(t.postalCode, t.id)],
);

/** Islands (idn-area-data's islands, with the 2430/2025 moves applied). */
export const pulau = sqliteTable(
  "pulau",
  {
    id: text("id").primaryKey(), // 11.01.40001
    code: text("code").notNull(), // 110140001
    name: text("name").notNull(),
    nameSearch: text("name_search").notNull(), // normalised name (src/wilayah/normalize.ts)
    kabupatenId: text("kabupaten_id"), // null: the island belongs to the province as a whole (code xx.00.xxxxx)
    provinsiId: text("provinsi_id").notNull(),
    lat: real("lat"),
    lng: real("lng"),
    isPopulated: integer("is_populated").notNull(),
    isOutermostSmall: integer("is_outermost_small").notNull(),
    isActive: integer("is_active").notNull().default(1),
    replacedBy: text("replaced_by"), // for a retired code: the code that replaced it
  },
  (t) => [index("pulau_kabupaten_idx").on(t.kabupatenId, t.id), index("pulau_provinsi_idx").on(t.provinsiId, t.id)],
);

/**
 * Region boundaries (src/wilayah/geo/geometry.ts describes `data`). A boundary longer than a D1 statement
 * allows is split over rows (`part` 0, 1, ...) that concatenate to the whole; `level` 1-4.
 * Provinsi to kecamatan come with the seed, kelurahan/desa from their own load (scripts/seed/boundaries.ts).
 */
export const wilayahShape = sqliteTable(
  "wilayah_shape",
  {
    id: text("id").notNull(),
    part: integer("part").notNull(),
    level: integer("level").notNull(),
    data: text("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.id, t.part] }), index("wilayah_shape_level_idx").on(t.level)],
);

/** Bounding box of each boundary (degrees). */
export const wilayahBbox = sqliteTable(
  "wilayah_bbox",
  {
    id: text("id").primaryKey(),
    level: integer("level").notNull(),
    minLng: real("min_lng").notNull(),
    minLat: real("min_lat").notNull(),
    maxLng: real("max_lng").notNull(),
    maxLat: real("max_lat").notNull(),
  },
  (t) => [index("wilayah_bbox_level_idx").on(t.level)],
);

/**
 * Candidate index for reverse geocoding: one row per grid cell (GRID_CELL in src/wilayah/geo/geometry.ts)
 * that a kecamatan's or kelurahan's bounding box touches, with the box, so a point reads only the
 * regions of its own cell whose box holds it. Built inside SQLite from `wilayah_bbox` by the seed.
 */
export const wilayahGrid = sqliteTable(
  "wilayah_grid",
  {
    level: integer("level").notNull(),
    cell: integer("cell").notNull(),
    id: text("id").notNull(),
    minLng: real("min_lng").notNull(),
    minLat: real("min_lat").notNull(),
    maxLng: real("max_lng").notNull(),
    maxLat: real("max_lat").notNull(),
  },
  (t) => [primaryKey({ columns: [t.level, t.cell, t.id] })],
);

/*
 * Space tables (issue 25), in the custom migration 0014_wilayah_space.sql (WITHOUT ROWID tables,
 * which drizzle-kit cannot express), read with raw SQL by src/wilayah/space/queries.ts:
 *
 * - `wilayah_neighbor (id, neighbor_id, level, shared_border_km)`, primary key (id, neighbor_id):
 *   regions of the same level that share a border, one row per direction, so `/{id}/neighbors` is
 *   one primary-key range. Built by scripts/seed/neighbours.ts (provinsi to kecamatan in
 *   seed/wilayah.sql; kelurahan/desa from seed/neighbours-kelurahan.csv.gz with their boundaries).
 *   A region without a boundary has no rows: unknown, not "none" (docs/neighbours-method.md).
 * - `wilayah_point (level, cell, id, lat, lng)`, primary key (level, cell, id): the centroid of
 *   every current region with coordinates, keyed by its grid cell (POINT_CELL in
 *   src/wilayah/space/grid.ts), for `/nearby`. Built inside SQLite by the seed.
 * - `wilayah_gap (field, level, id)`, primary key (field, level, id): the current regions that lack
 *   a field (coordinates, boundary, postal_code, population, area, bps_code), and `wilayah_coverage (level,
 *   field, regions, covered)`: the counts per level. Rebuilt in SQL at the end of the seed and of
 *   the kelurahan boundary load, so they describe what is loaded.
 */

/** Which dataset is loaded: the seed writes one row; `scripts/dev.ts` reads it to skip reloading. */
export const dataset = sqliteTable("dataset", {
  id: text("id").primaryKey(),
  version: text("version").notNull(),
  checksum: text("checksum").notNull(),
});

// ---------------------------------------------------------------- accounts

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(), // user_...
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    plan: text("plan").notNull().default("free"),
    status: text("status", { enum: ["active", "suspended"] })
      .notNull()
      .default("active"),
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(sql`(unixepoch() * 1000)`),
    /** Session tokens issued before this time (epoch seconds, `iat < session_epoch`) are refused: raised to end every session. */
    sessionEpoch: integer("session_epoch").notNull().default(0),
    /** When the last verification message was sent (ms): the 1-per-minute resend limit is one conditional write on it. */
    verificationSentAt: integer("verification_sent_at"),
    /**
     * Whether whoever set up what the account holds (password, sessions, keys) proved they own the
     * email: false from a password registration until the link is opened in the browser that signed
     * up, a password reset through the emailed link, or a provider's verified sign-in. A reset of an
     * account still false is a takeover (its keys are revoked). Accounts from before this column: true.
     */
    ownerProven: integer("owner_proven", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email)],
);

export type UserRow = typeof users.$inferSelect;

/** Session tokens ended one by one (logout), by SHA-256 of the token, until the token would have expired anyway. */
export const revokedSessions = sqliteTable(
  "revoked_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull(),
    expiresAt: integer("expires_at").notNull(), // ms
  },
  (t) => [index("revoked_sessions_expiry_idx").on(t.expiresAt)],
);

/** Password-reset links: each usable once, within its expiry. `id` is the token's `jti`. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("password_resets_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Failed logins per email address (known or not, keyed by the SHA-256 of the normalised address, so
 * the table answers the same for both): the per-account back-off.
 */
export const loginFailures = sqliteTable("login_failures", {
  emailHash: text("email_hash").primaryKey(),
  failures: integer("failures").notNull(),
  lockedUntil: integer("locked_until").notNull().default(0), // ms
  lastAt: integer("last_at").notNull(), // ms
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(), // key_...
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    last4: text("last4").notNull(),
    keyHash: text("key_hash").notNull(), // hex SHA-256 of the whole secret
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
    /** "secret" (`wk_live_`, servers only) or "publishable" (`wk_pub_`, may sit in a web page: src/keys/publishable.ts). */
    kind: text("kind").notNull().default("secret"),
    /** Publishable keys: the JSON array of origins a request must come from (`https://shop.example.com`, `https://*.example.com`). */
    allowedOrigins: text("allowed_origins"),
    /** Publishable keys: calls per minute for this key alone (one of the tiers in src/keys/publishable.ts), within the plan's. */
    rateLimitPerMinute: integer("rate_limit_per_minute"),
    /** When the key stops working (ms); null: never. */
    expiresAt: integer("expires_at"),
    /** The Origin (or the Referer's origin) of the latest call, if it had one. */
    lastUsedOrigin: text("last_used_origin"),
    /** After a roll: the hash of the secret before, which works until `previous_until` (ms), then never again. */
    previousKeyHash: text("previous_key_hash"),
    previousUntil: integer("previous_until"),
  },
  (t) => [
    uniqueIndex("api_keys_hash_uq").on(t.keyHash),
    uniqueIndex("api_keys_previous_hash_uq").on(t.previousKeyHash),
    index("api_keys_user_idx").on(t.userId),
  ],
);

// ---------------------------------------------------------------- usage

/**
 * Successful data calls per user, key, endpoint and UTC day. Written by the per-account Durable
 * Object when it flushes (absolute counts, so a repeated flush changes nothing); the object itself
 * holds the live, exact counts.
 */
export const usageDaily = sqliteTable(
  "usage_daily",
  {
    userId: text("user_id").notNull(),
    keyId: text("key_id").notNull(),
    endpoint: text("endpoint").notNull(),
    day: text("day").notNull(), // YYYY-MM-DD (UTC)
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.keyId, t.endpoint, t.day] }), index("usage_daily_day_idx").on(t.day)],
);

// ---------------------------------------------------------------- billing

export const plans = sqliteTable("plans", {
  id: text("id").primaryKey(), // free, starter, pro, business
  name: text("name").notNull(),
  priceIdr: integer("price_idr").notNull(), // per month
  monthlyQuota: integer("monthly_quota").notNull(), // calls included per UTC month
  rateLimitPerMinute: integer("rate_limit_per_minute"), // null: not rate limited (internal plan)
  features: text("features", { mode: "json" }).$type<string[]>().notNull(),
  sort: integer("sort").notNull(),
  /** Listed in /billing/plans and purchasable; the `internal` plan (own services, benchmarks) is granted by admins only. */
  isPublic: integer("is_public", { mode: "boolean" }).notNull(),
});

/** A QRIS payment request at Tripay: a credit top-up or a month of a plan. */
export const invoices = sqliteTable(
  "invoices",
  {
    id: text("id").primaryKey(), // inv_...; also Tripay's merchant_ref
    userId: text("user_id").notNull(),
    kind: text("kind", { enum: ["topup", "subscription"] }).notNull(),
    planId: text("plan_id"),
    credits: integer("credits"),
    amount: integer("amount").notNull(), // IDR
    /** Tripay's reference; `pending:<id>` from the moment the invoice is recorded until Tripay's answer is adopted. */
    reference: text("reference").notNull(),
    status: text("status", { enum: ["UNPAID", "PAID", "EXPIRED", "FAILED", "REFUNDED"] }).notNull(),
    /**
     * Who decided a final status: `provider` (a signed callback: final) or `system` (our expiry job,
     * or a create call that failed: provisional, a signed PAID still settles it). Null while UNPAID.
     */
    closedBy: text("closed_by", { enum: ["provider", "system"] }),
    qrString: text("qr_string").notNull(),
    qrUrl: text("qr_url"),
    expiresAt: integer("expires_at").notNull(),
    paidAt: integer("paid_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("invoices_reference_uq").on(t.reference),
    index("invoices_user_idx").on(t.userId, t.createdAt),
    index("invoices_unpaid_idx").on(t.status, t.expiresAt),
  ],
);

/** One row per paid subscription invoice (or admin grant); the unique source guards double activation. */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    planId: text("plan_id").notNull(),
    source: text("source").notNull(), // invoice:<id> | admin:<uuid>
    periodStart: integer("period_start").notNull(),
    periodEnd: integer("period_end").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("subscriptions_source_uq").on(t.source), index("subscriptions_user_idx").on(t.userId, t.periodEnd)],
);

/** Append-only. Balance = sum(amount). `ref` is unique: each credit or debit is written exactly once. */
export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    amount: integer("amount").notNull(), // credits: + top-up/grant, - usage/take
    reason: text("reason").notNull(),
    ref: text("ref").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("credit_ledger_ref_uq").on(t.ref), index("credit_ledger_user_idx").on(t.userId, t.id)],
);

// ---------------------------------------------------------------- audit

/**
 * Security events (src/audit): who did what to whom, from where, in which request. Never a secret,
 * a password or a token: `detail` holds ids, amounts, reasons and the like.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(), // ms
    event: text("event").notNull(),
    actorId: text("actor_id"), // who acted (the user, an admin), null for the provider or an unknown caller
    subjectId: text("subject_id"), // whose account it concerns, null when no account matched
    ip: text("ip"),
    requestId: text("request_id"),
    detail: text("detail", { mode: "json" }).$type<Record<string, string | number | boolean | null>>().notNull(),
  },
  (t) => [index("audit_subject_idx").on(t.subjectId, t.id), index("audit_event_idx").on(t.event, t.id), index("audit_actor_idx").on(t.actorId, t.id)],
);

// ---------------------------------------------------------------- region history
// Filled by the seed from scripts/seed/history.ts (docs/history-method.md): six editions of the
// code list (2015 .. 2025), read-only between seeds. A code that is in every edition under the name
// its region row carries has no wilayah_history row: its region row answers for it.

/** The editions, oldest first. `ord` is the edition's bit in wilayah_history.editions and wilayah_change.edition. */
export const wilayahEdition = sqliteTable(
  "wilayah_edition",
  {
    id: text("id").primaryKey(), // 2015, 2017, 2020, 2022, 2022b, 2025
    ord: integer("ord").notNull(),
    regulation: text("regulation").notNull(),
    provinsi: integer("provinsi").notNull(), // codes per level in this edition
    kabupaten: integer("kabupaten").notNull(),
    kecamatan: integer("kecamatan").notNull(),
    kelurahan: integer("kelurahan").notNull(),
    isCurrent: integer("is_current").notNull(),
  },
  (t) => [uniqueIndex("wilayah_edition_ord_uq").on(t.ord)],
);

/** Every code with more history than "in every edition, under its region row's name"; every non-current code. */
export const wilayahHistory = sqliteTable("wilayah_history", {
  id: text("id").primaryKey(), // dotted code
  level: integer("level").notNull(), // 1 provinsi .. 4 kelurahan/desa
  editions: integer("editions").notNull(), // bit `ord` set: the code is in that edition (63: all six)
  names: text("names").notNull(), // JSON [[editions bitmask, "name as that edition spells it"], ...]
  within: text("within"), // non-current code: the deepest current region holding all of it (null: unknown)
});

/** Non-current code -> current code, chained through the editions (several rows: a split or an unresolved tie). */
export const wilayahSuccessor = sqliteTable(
  "wilayah_successor",
  {
    oldId: text("old_id").notNull(),
    newId: text("new_id").notNull(),
    basis: text("basis").notNull(), // curated | same_name | same_name_elsewhere | children | split | similar_name | name_part
    confidence: real("confidence").notNull(), // 0..1, docs/history-method.md
    via: text("via"), // the codes between, space-separated, when the chain has several steps
  },
  (t) => [primaryKey({ columns: [t.oldId, t.newId] }), index("wilayah_successor_new_idx").on(t.newId)],
);

/**
 * Changes between consecutive editions. `seq` follows (edition, level, change, codes), so the changes
 * of one (edition, level, change) are one run of `seq` (wilayah_change_run), and a page of /changes,
 * whatever its filters, is a few `seq` ranges: it reads its own rows only.
 */
export const wilayahChange = sqliteTable(
  "wilayah_change",
  {
    seq: integer("seq").primaryKey(),
    edition: integer("edition").notNull(), // wilayah_edition.ord of the edition the change shows in (1..5)
    level: integer("level").notNull(),
    change: text("change").notNull(), // created | retired | renamed | recoded | split | merged
    codeBefore: text("code_before"),
    nameBefore: text("name_before"),
    codeAfter: text("code_after"),
    nameAfter: text("name_after"),
    basis: text("basis"),
    confidence: real("confidence"),
  },
  (t) => [index("wilayah_change_before_idx").on(t.codeBefore), index("wilayah_change_after_idx").on(t.codeAfter)],
);

/** The runs of wilayah_change: the changes of one edition, level and kind are `seq` first .. first + n - 1 (at most 6 x 4 x 5 rows). */
export const wilayahChangeRun = sqliteTable(
  "wilayah_change_run",
  {
    edition: integer("edition").notNull(), // wilayah_edition.ord
    level: integer("level").notNull(),
    change: text("change").notNull(),
    first: integer("first").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.edition, t.level, t.change] })],
);

/**
 * Search (src/wilayah/search): the spellings among a region's `wilayah_search.terms` that are names
 * of earlier editions and not of the current list (normalised, between U+001F separators), by
 * `wilayah_search.ord`. A match the region's current spellings cannot explain is marked `former`.
 */
export const wilayahFormer = sqliteTable("wilayah_former", {
  r: integer("r").primaryKey(),
  terms: text("terms").notNull(),
});

// ---------------------------------------------------------------- BPS codes (src/wilayah/bps)

/**
 * The statistics bureau's region codes (seed/sources/wilayah-bps-crosswalk.csv): one row per BPS code
 * (4 digits kabupaten/kota, 7 kecamatan, 10 kelurahan/desa; unique across levels by length), in the
 * newest BPS period that has it. A BPS region lies in `current_id`, it does not always equal it: one
 * current region may hold several BPS codes. `current_id` null: the crosswalk could not establish
 * one, and the code stays unmapped (never guessed). `current_name` is the region's name at the seed.
 */
export const wilayahBps = sqliteTable(
  "wilayah_bps",
  {
    code: text("code").primaryKey(), // BPS code, digits only
    level: integer("level").notNull(), // 2 kabupaten/kota, 3 kecamatan, 4 kelurahan/desa
    name: text("name"), // as BPS spells it; null for the 2020_2 rows (the source kept only the Kemendagri name)
    period: text("period").notNull(), // 2025_2 | 2020_2 | 2017_2: sorts newest last
    kemendagriCodes: text("kemendagri_codes"), // the Kemendagri code(s) of that period, `|`-separated (several: 8 rows); null: none given
    kemendagriName: text("kemendagri_name"),
    currentId: text("current_id"), // today's dotted code
    currentName: text("current_name"),
    match: text("match").notNull(), // same_code_same_name | same_code_name_differs | renamed_or_moved | none
  },
  // current: a by-id answer's bps_codes read from the index alone, in its order (newest period, then code);
  // period: the not-found answer names the periods held, a few index lookups (src/wilayah/bps/queries.ts)
  (t) => [index("wilayah_bps_current_idx").on(t.currentId, sql`${t.period} DESC`, t.code), index("wilayah_bps_period_idx").on(t.period)],
);

// ---------------------------------------------------------------- sources (src/wilayah/sources)

/**
 * Where the data comes from (issue 40): the datasets and regulations behind each family of a
 * region's fields, written by the seed from seed/sources/sources.json (checked against
 * seed/sources/README.md and seed/editions.json). Read whole (a few dozen rows) by
 * `?include=sources` and the page /docs/guide/sources. `version`, `licence`: null where the source
 * states none (said in `note`), never guessed.
 */
export const wilayahSource = sqliteTable("wilayah_source", {
  id: text("id").primaryKey(), // idn-area-data, cahyadsn-boundaries, edition-2025, ...
  ord: integer("ord").notNull(), // display order
  kind: text("kind", { enum: ["dataset", "regulation"] }).notNull(),
  families: text("families").notNull(), // space-separated: code_name coordinates postal_code boundary population_area islands bps_codes
  name: text("name").notNull(),
  url: text("url"),
  version: text("version"), // release or commit; for a regulation its number
  date: text("date"), // commit date or the regulation's date (YYYY-MM-DD); null: unknown
  licence: text("licence"), // SPDX id where there is one (MIT, ODbL-1.0); null: none stated
  licenceUrl: text("licence_url"),
  attribution: text("attribution").notNull(), // the credit to show where the data is shown or shipped
  edition: text("edition"), // a regulation: the edition of the code list it set (wilayah_edition.id)
  files: text("files"), // the repository files it arrives in, `|`-separated
  processing: text("processing"),
  note: text("note"),
});

/**
 * Hand corrections and additions per region, each with its basis: curated history links
 * (seed/history-curated.csv), name readings (seed/name-table.csv), aliases (seed/aliases.csv),
 * hand-set alternative names, points derived from a boundary, island moves. Read by region id.
 */
export const wilayahSourceNote = sqliteTable(
  "wilayah_source_note",
  {
    regionId: text("region_id").notNull(),
    family: text("family").notNull(),
    kind: text("kind").notNull(), // curated_history | name_reading | alias | alt_name | derived_point | island_move
    value: text("value").notNull(),
    basis: text("basis").notNull(),
    sourceFile: text("source_file").notNull(), // the repository file (or code) the correction is written in
  },
  (t) => [primaryKey({ columns: [t.regionId, t.family, t.kind, t.value] })],
);

// ---------------------------------------------------------------- webhooks (src/webhooks; docs/api.md, "Webhooks")

/**
 * A developer's webhook endpoints. The signing secret is one we sign with, so it is stored encrypted
 * (AES-GCM under a key derived from WEBHOOK_SECRET_KEY, or JWT_SECRET: src/webhooks/secret.ts), not
 * hashed. `events` and `regions` are JSON arrays. `failing_since`: the first failed attempt of the
 * current run of failures (null after a success); three days of it disable the endpoint.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(), // wh_...
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    url: text("url").notNull(),
    events: text("events").notNull(),
    regions: text("regions").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason"),
    secret: text("secret").notNull(), // encrypted: v1.<key>.<iv>.<ciphertext>
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    failingSince: integer("failing_since"),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Events announced (the publisher's memory): one row per key (`edition.published:2025`), written
 * once. The first run ever writes the current edition with `baseline` 1 and delivers nothing.
 */
export const webhookEvents = sqliteTable("webhook_events", {
  key: text("key").primaryKey(),
  type: text("type").notNull(),
  edition: text("edition"),
  baseline: integer("baseline", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
});

/**
 * One message to one endpoint: `id` is its `webhook-id`, the same on every attempt. `payload` is the
 * body exactly as sent. Status: pending (queued or retrying), delivered, dead (the retries are spent,
 * or the endpoint refused it for good). `event_key` makes the publisher's inserts idempotent.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(), // msg_...
    endpointId: text("endpoint_id").notNull(),
    eventType: text("event_type").notNull(),
    eventKey: text("event_key"),
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "delivered", "dead"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    enqueuedAt: integer("enqueued_at"),
    lastAttemptAt: integer("last_attempt_at"),
    finishedAt: integer("finished_at"),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    uniqueIndex("webhook_deliveries_event_uq").on(t.endpointId, t.eventKey, t.eventType),
    index("webhook_deliveries_unqueued_idx").on(t.status, t.enqueuedAt),
  ],
);

/**
 * Each attempt, written as `started` before the POST and completed after it: a row left `started`
 * is an attempt the Worker did not finish (it crashed or was evicted); the queue tries again.
 */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: text("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: integer("started_at").notNull(),
    outcome: text("outcome", { enum: ["started", "ok", "failed"] }).notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    latencyMs: integer("latency_ms"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.id)],
);

// ---------------------------------------------------------------- bulk jobs (src/jobs)

/**
 * A bulk job: a file of addresses or codes (stored in R2 as uploaded, `jobs/<id>/input`) processed
 * in chunks on the jobs queue. `rows_done` and `chunks_done` are sums over `job_chunks`, written
 * with each chunk, so a chunk recorded twice changes nothing. `header`: the CSV header as JSON.
 * State: queued -> running -> done | failed | cancelled (final states never change).
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(), // job_...
    userId: text("user_id").notNull(),
    keyId: text("key_id").notNull(),
    kind: text("kind", { enum: ["address", "convert"] }).notNull(),
    format: text("format", { enum: ["csv", "jsonl"] }).notNull(),
    column: text("column").notNull(),
    header: text("header"),
    state: text("state", { enum: ["queued", "running", "done", "failed", "cancelled"] }).notNull(),
    rowsTotal: integer("rows_total").notNull(),
    rowsDone: integer("rows_done").notNull().default(0),
    rowsWarned: integer("rows_warned").notNull().default(0),
    chunksTotal: integer("chunks_total").notNull(),
    chunksDone: integer("chunks_done").notNull().default(0),
    inputBytes: integer("input_bytes").notNull(),
    credits: integer("credits").notNull(), // reserved at acceptance
    error: text("error"),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    expiresAt: integer("expires_at").notNull(), // the input and result are deleted after it
    // The last sign of life (acceptance, a chunk recorded, a re-send): the watchdog re-sends the
    // chunks of a job that shows none for a while (src/jobs/watchdog.ts).
    progressAt: integer("progress_at"),
    // When a final job's end steps (reservation released, webhooks told) were both confirmed; until
    // then the watchdog runs them again.
    settledAt: integer("settled_at"),
    // The region data versions its rows were answered from, comma-separated (two when a seed landed mid-job).
    dataVersions: text("data_versions"),
    // convert jobs: whose codes the file holds (null: kemendagri, as before BPS codes; address jobs: null)
    codeSystem: text("code_system", { enum: ["kemendagri", "bps"] }),
  },
  (t) => [index("jobs_user_idx").on(t.userId, t.createdAt), index("jobs_expiry_idx").on(t.expiresAt), index("jobs_state_idx").on(t.state, t.progressAt)],
);

/** A chunk of a job whose result is in R2 (`jobs/<id>/out/<chunk>`) and whose rows are charged: recorded once. */
export const jobChunks = sqliteTable(
  "job_chunks",
  {
    jobId: text("job_id").notNull(),
    chunk: integer("chunk").notNull(),
    rows: integer("rows").notNull(),
    warned: integer("warned").notNull(),
    doneAt: integer("done_at").notNull(),
    dataVersion: text("data_version"), // the version of the region data the chunk's rows were answered from
  },
  (t) => [primaryKey({ columns: [t.jobId, t.chunk] })],
);

// ---------------------------------------------------------------- reports of wrong facts (src/reports; docs/api.md, "Reporting a wrong fact")

/**
 * A report that a fact of a region is wrong: the field, the value the reporter believes right, the
 * evidence (a URL, a regulation number, free text; at least one), and who filed it. An admin moves
 * it from `open` to `accepted` (with the basis the correction cites), `rejected` or `duplicate`
 * (of another report), with an answer the reporter reads. Accepted reports are pulled into
 * seed/corrections.csv (`npm run corrections:pull`) and applied by the next seed build.
 */
export const reports = sqliteTable(
  "reports",
  {
    id: text("id").primaryKey(), // rpt_...
    userId: text("user_id").notNull(),
    /** The key it was filed with, or `portal` (a portal session). */
    keyId: text("key_id").notNull(),
    regionId: text("region_id").notNull(), // dotted code
    field: text("field", { enum: ["name", "parent", "postal_code", "coordinates", "boundary", "population", "missing_child", "other"] }).notNull(),
    value: text("value").notNull(),
    evidenceUrl: text("evidence_url"),
    evidenceRegulation: text("evidence_regulation"),
    evidenceText: text("evidence_text"),
    /** Where the status changes are told; null: the account's email. */
    notifyEmail: text("notify_email"),
    /** The language the reporter filed in (the portal page's, `id` or `en`): the decision's email is written in it; null: English. */
    lang: text("lang", { enum: ["id", "en"] }),
    status: text("status", { enum: ["open", "accepted", "rejected", "duplicate"] })
      .notNull()
      .default("open"),
    /** The reviewer's answer to the reporter. */
    answer: text("answer"),
    /** accepted: the basis the correction cites (a regulation, a letter, a survey). */
    basis: text("basis"),
    /** accepted: the value the correction applies (the reporter's, or the reviewer's cleaner form of it). */
    acceptedValue: text("accepted_value"),
    /** duplicate: the report it repeats. */
    duplicateOf: text("duplicate_of"),
    createdAt: integer("created_at").notNull(), // ms
    reviewedAt: integer("reviewed_at"), // ms
    reviewedBy: text("reviewed_by"),
  },
  (t) => [
    index("reports_user_idx").on(t.userId, t.createdAt),
    // the open reports per region (the isolate's set of disputed regions reads only open rows), and the queue's filters
    index("reports_status_region_idx").on(t.status, t.regionId),
    index("reports_region_idx").on(t.regionId, t.field),
  ],
);

/**
 * Corrections applied by the seed (seed/corrections.csv, from accepted reports: scripts/seed/corrections.ts):
 * read-only between seeds, like the region tables. `value_before` is what the sources said.
 */
export const wilayahCorrections = sqliteTable(
  "wilayah_corrections",
  {
    reportId: text("report_id").primaryKey(),
    regionId: text("region_id").notNull(),
    level: integer("level").notNull(), // 1 provinsi .. 4 kelurahan/desa
    field: text("field").notNull(), // name | postal_code | coordinates
    valueBefore: text("value_before"),
    value: text("value").notNull(),
    basis: text("basis").notNull(),
    acceptedAt: text("accepted_at").notNull(), // ISO 8601
  },
  (t) => [index("wilayah_corrections_region_idx").on(t.regionId)],
);
