/** Region history: the editions of the code list, a code's history, the changes between editions; declared once for REST and MCP. */

import { z } from "zod";
import registry from "../../../seed/editions.json";
import { defineEndpoint } from "../../data/endpoint";
import { pageMeta, pageParams } from "../../lib/paging";
import { bpsFacts } from "../bps/endpoints";
import { convertBps } from "../bps/service";
import { LEVELS } from "../codes";
import { DAY } from "../schemas";
import { WILAYAH_DATA } from "../version";
import { BASES, CHANGES, convert, listChanges, listEditions, regionHistory } from "./service";

/** The editions this Worker's seed knows (seed/editions.json; `npm run edition:add` appends to it), for the descriptions. */
const EDITION_IDS = registry.editions.map((e) => e.id).join(", ");

const basis = z
  .enum(BASES)
  .describe(
    "Why this successor: curated (the law that formed the region says so), same_name (the same name under the parent or its successor), same_name_elsewhere (the same name elsewhere in the kabupaten or province), children (where its villages or kecamatan went), split (its children went to several regions), similar_name (a spelling a small edit away), name_part (its name inside a longer new name)",
  );
const confidence = z.number().describe("0 to 1: how likely a place that had the old code now lies in this region (docs/api.md, Region history)");
const levelEnum = z.enum(LEVELS);

const editionsOutput = z.object({
  data: z.array(
    z.object({
      id: z.string().describe(`The edition: ${EDITION_IDS}`),
      regulation: z.string().describe("The regulation that published it"),
      counts: z.object({ provinsi: z.int(), kabupaten: z.int(), kecamatan: z.int(), kelurahan: z.int() }).describe("Codes per level in that edition"),
      current: z.boolean().describe("True for the edition the API serves"),
    }),
  ),
});

export const editionsEndpoint = defineEndpoint({
  path: "/wilayah/editions",
  tool: "wilayah_editions",
  description: `The editions of the Kemendagri region code list the API knows (${EDITION_IDS}), oldest first: each one's regulation, its number of codes per level, and which one is current. Codes of any of them are accepted by the history, changes, convert, by-id and NIK endpoints.`,
  example: {},
  input: z.strictObject({}),
  output: editionsOutput,
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (_q, { reads }) => listEditions(reads),
});

const changeItem = z.object({
  kind: z
    .enum(["edition", "correction"])
    .describe(
      "edition: a change between two editions of the code list; correction: a fact we corrected over the current edition from an accepted report of a wrong fact (see `correction`)",
    ),
  edition: z.string().describe("The edition the change shows in (the change happened since the edition before it); for a correction, the edition it corrects"),
  regulation: z.string(),
  change: z
    .enum(CHANGES)
    .describe(
      "created (a new code; code_before names the region it was formed from, when known), retired (the code left with no successor), renamed, recoded (the code left, one region took its place), split, merged; corrected (kind correction: a name, postal code or coordinate we corrected)",
    ),
  level: levelEnum,
  code_before: z.string().nullable(),
  name_before: z.string().nullable().describe("As the earlier edition spelled it"),
  code_after: z.string().nullable(),
  name_after: z.string().nullable().describe("As the later edition spelled it"),
  basis: basis.nullable().describe("For recoded, split, merged and created-from: why (see basis of successors)"),
  confidence: confidence.nullable(),
  correction: z
    .object({
      report_id: z.string().describe("The accepted report it came from"),
      field: z.enum(["name", "postal_code", "coordinates"]),
      value_before: z.string().nullable().describe("What the sources said (coordinates as `lat,lng`)"),
      value: z.string().describe("The value now served"),
      basis: z.string().describe("What the reviewer cited: a regulation, a letter, a survey"),
      accepted_at: z.string().describe("When the report was accepted (ISO 8601)"),
    })
    .optional()
    .describe("kind correction only"),
});

const historyInput = z.strictObject({
  code: z.string().describe("A region code of any level and edition, with or without dots: 91.01, 9101, 92.71.05.1008"),
});

export const historyEndpoint = defineEndpoint({
  path: "/wilayah/:code/history",
  tool: "wilayah_history",
  description:
    "The history of a region code of any level and any edition since 2015: the editions it is in with its name in each, whether it is current or retired, its successors among today's regions (with why and how sure), the codes it succeeded, and the changes that name it. Use it to understand an old code (a NIK's, or one stored years ago).",
  errors: ["NOT_FOUND"],
  example: { code: "91.01" },
  input: historyInput,
  output: z.object({
    data: z.object({
      code: z.string().describe("The code, dotted"),
      level: levelEnum,
      name: z.string().describe("Its current name, or the name it was last published under"),
      status: z.enum(["current", "retired"]),
      editions: z
        .array(z.object({ edition: z.string(), name: z.string().describe("As that edition spelled it") }))
        .describe("Empty for a retired code no edition since 2015 holds"),
      successors: z
        .array(
          z.object({
            id: z.string(),
            name: z.string(),
            level: levelEnum,
            basis,
            confidence,
            via: z.array(z.string()).describe("The codes between, when the code moved more than once"),
          }),
        )
        .describe(
          "Current regions that took over a retired code; several for a split or an unresolved tie; empty for a current code and for a retired code whose successor is not known",
        ),
      within: z
        .object({ id: z.string(), name: z.string(), level: levelEnum })
        .nullable()
        .describe(
          "A retired code: the deepest current region known to hold all of it (its parent's successor when it has no successor); null for a current code",
        ),
      predecessors: z
        .array(
          z.object({
            code: z.string(),
            name: z.string().describe("As its last edition spelled it"),
            last_edition: z.string().nullable(),
            basis,
            confidence,
          }),
        )
        .describe("Retired codes this current region took over"),
      changes: z.array(changeItem).describe("The changes that name this code, oldest first"),
    }),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => regionHistory(reads, q.code),
});

const changesInput = z.strictObject({
  from: z.string().max(20).optional().describe(`The earlier edition (${EDITION_IDS}); default: the edition before \`to\``),
  to: z.string().max(20).optional().describe("The later edition; default: the current one"),
  level: levelEnum.optional().describe("Only this level"),
  change: z.enum(CHANGES).optional().describe("Only this kind of change"),
  kind: z
    .enum(["edition", "correction"])
    .optional()
    .describe("Only changes between editions, or only corrections (listed when `to` is the current edition); default both"),
  ...pageParams,
});

export const changesEndpoint = defineEndpoint({
  path: "/wilayah/changes",
  tool: "wilayah_changes",
  description:
    "The changes to the region code list between two editions (default: from the previous edition to the current one): codes created, retired, renamed, recoded, split and merged, each with its level and the code and name before and after. Paged, in order (edition, level, kind, code). When `to` is the current edition, the corrections made over it follow (kind correction, change corrected: a name, postal code or coordinate corrected from an accepted report, with its basis).",
  example: { from: "2022b", to: "2025", level: "kabupaten", per_page: 3 },
  input: changesInput,
  output: z.object({
    data: z.array(changeItem),
    meta: pageMeta.extend({ from: z.string().describe("The editions compared"), to: z.string() }),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => listChanges(reads, q),
});

/** Codes per /convert request; each counts as one call. */
export const CONVERT_MAX = 1000;

const regionRef = z.object({ id: z.string(), name: z.string(), level: levelEnum });
const convertInput = z.strictObject({
  codes: z
    .array(z.string().max(40))
    .min(1, "at least 1 code")
    .max(CONVERT_MAX, `at most ${CONVERT_MAX} codes per request`)
    .describe(`1 to ${CONVERT_MAX} region codes of any level and edition, with or without dots; each counts as one call`),
  from: z
    .enum(["kemendagri", "bps"])
    .default("kemendagri")
    .describe("kemendagri (default): Kemendagri codes of any edition; bps: BPS (statistics bureau) codes of 4, 7 or 10 digits, separators optional"),
});

export const convertEndpoint = defineEndpoint({
  path: "/wilayah/convert",
  method: "POST",
  tool: "wilayah_convert",
  description: `Convert region codes of any edition since 2015 and any level to today's codes, ${CONVERT_MAX} at a time, in order: for each, its status (current, retired, or unknown: never a code), the current region (the successor when there is exactly one; the code itself when current) and every successor with why and how sure. Each code counts as one call; a request the remaining quota and credits cannot cover whole is refused whole (402). Use it to migrate a database keyed on old codes. With from "bps" it takes BPS (statistics bureau) codes: status current (the BPS region lies in \`current\`), unmapped (BPS code known, no current region established: never guessed) or unknown, with the BPS period, match and Kemendagri codes of that period in \`bps\`.`,
  example: { codes: ["91.01", "9271", "91.01.01.2001", "32.73", "32.73.99"] },
  input: convertInput,
  calls: (input) => input.codes.length,
  output: z.object({
    data: z.array(
      z.object({
        code: z.string().describe("The code as given"),
        id: z.string().nullable().describe("The code dotted (from bps: its digits); null when it is no well-formed code"),
        status: z
          .enum(["current", "retired", "unknown", "unmapped"])
          .describe(
            "current: in today's list (from bps: leads to a current region); retired: of an earlier edition only; unknown: in no edition since 2015 (from bps: no BPS code we hold); unmapped: from bps only, a BPS code we hold whose current region could not be established",
          ),
        current: regionRef
          .nullable()
          .describe("The region to use today: the code itself when current, its successor when it has exactly one; null otherwise (see successors)"),
        successors: z
          .array(regionRef.extend({ basis, confidence }))
          .describe("A retired code's successors among today's regions, surest first (several for a split or a tie; none when not known)"),
        bps: z
          .object(bpsFacts)
          .optional()
          .describe("from bps, a BPS code we hold: the period of its pairing, how today's region was reached, the Kemendagri code(s) of that period"),
      }),
    ),
  }),
  cacheSeconds: DAY,
  version: WILAYAH_DATA,
  handler: (q, { reads }) => (q.from === "bps" ? convertBps(reads.db, q.codes) : convert(reads.db, q.codes)),
});

/** In catalogue order: the one-segment paths before `/wilayah/:id`, which would take them. */
export const historyEndpoints = [editionsEndpoint, changesEndpoint, convertEndpoint, historyEndpoint];
