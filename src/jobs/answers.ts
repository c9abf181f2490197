/**
 * What a job answers for each row: the same services as the single endpoints (POST
 * /wilayah/address, /wilayah/convert), in the groups those endpoints take, and how an answer is
 * written as CSV cells beside the input's own columns.
 */
import type { RegionReads } from "../db/reads";
import { type AddressAnswer, resolveAddresses } from "../wilayah/addresses/service";
import { convertBps } from "../wilayah/bps/service";
import { convert } from "../wilayah/history/service";

export type JobKind = "address" | "convert";
type ConvertAnswer = Awaited<ReturnType<typeof convert>>["data"][number] | Awaited<ReturnType<typeof convertBps>>["data"][number];
export type RowAnswer = AddressAnswer | ConvertAnswer | null;

/**
 * Rows answered at once: small groups, so a request that arrives while one runs waits for little
 * (the single endpoints take 100 addresses or 1,000 codes).
 */
const GROUP: Record<JobKind, number> = { address: 10, convert: 100 };
/**
 * The share of the time a job may spend answering: after each group the consumer pauses so that
 * its groups take at most this share of the wall time, which leaves the isolate and the database
 * free for other requests the rest of it (a group that took long because others were busy is
 * followed by a longer pause). Measured with `npm run bench:jobs`: docs/performance.md.
 */
const BUSY_SHARE = 0.5;

/**
 * Answers for `values`, in order; an empty value gets none (null), and is counted as warned.
 * `answered` is told each answer as its group is done, inside the group's share of the time: the
 * consumer writes the row's result line there, so writing a chunk's 1,000 lines is not one long
 * stretch that holds the isolate (JSON of 1,000 address answers takes 10 to 35 ms on this machine,
 * and every call that arrived meanwhile waited for it: docs/performance.md, "Bulk jobs").
 */
export async function answerValues(
  reads: RegionReads,
  kind: JobKind,
  values: string[],
  from: "kemendagri" | "bps" = "kemendagri",
  answered: (index: number, answer: RowAnswer) => void = () => undefined,
): Promise<{ answers: RowAnswer[]; warned: number }> {
  const db = reads.db;
  const answers: RowAnswer[] = values.map(() => null);
  const todo = values.map((v, i) => ({ v: v.trim(), i })).filter((x) => x.v !== "");
  const group = GROUP[kind];
  for (let at = 0; at < todo.length; at += group) {
    const started = Date.now();
    const part = todo.slice(at, at + group);
    const got =
      kind === "address"
        ? await resolveAddresses(
            db,
            part.map((x) => x.v),
          )
        : (
            await (from === "bps" ? convertBps : convert)(
              db,
              part.map((x) => x.v),
            )
          ).data;
    part.forEach((x, k) => {
      answers[x.i] = got[k];
      answered(x.i, got[k]);
    });
    // Always a turn of the event loop (timers advance only across I/O in a Worker, so a group may read 0 ms).
    await new Promise((r) => setTimeout(r, ((Date.now() - started) * (1 - BUSY_SHARE)) / BUSY_SHARE));
  }
  return { answers, warned: answers.filter((a) => warnedOf(a)).length };
}

/** A row worth a second look: no answer, a warning, or (convert) a code no edition knows. */
function warnedOf(a: RowAnswer): boolean {
  if (a === null) return true;
  return "warnings" in a ? a.warnings.length > 0 || a.level === null : a.status === "unknown" || a.status === "unmapped";
}

/** The answer's columns in a CSV result, after the input's. */
export function answerColumns(kind: JobKind): string[] {
  return kind === "address"
    ? [
        "provinsi_id",
        "provinsi",
        "kabupaten_id",
        "kabupaten",
        "kecamatan_id",
        "kecamatan",
        "kelurahan_id",
        "kelurahan",
        "postal_code",
        "level",
        "confidence",
        "warnings",
      ]
    : ["status", "current_id", "current_name", "current_level", "successors"];
}

export function answerCells(kind: JobKind, a: RowAnswer): (string | number | null)[] {
  if (kind === "address") {
    const x = a as AddressAnswer | null;
    if (!x) return [null, null, null, null, null, null, null, null, null, null, 0, "empty"];
    return [
      x.provinsi?.id ?? null,
      x.provinsi?.name ?? null,
      x.kabupaten?.id ?? null,
      x.kabupaten?.name ?? null,
      x.kecamatan?.id ?? null,
      x.kecamatan?.name ?? null,
      x.kelurahan?.id ?? null,
      x.kelurahan?.name ?? null,
      x.postal_code,
      x.level,
      x.confidence,
      // No region at all says why, as an empty row does: not a blank cell beside confidence 0.
      x.level === null && x.warnings.length === 0 ? "no_match" : x.warnings.join(";"),
    ];
  }
  const x = a as ConvertAnswer | null;
  if (!x) return ["empty", null, null, null, null];
  return [x.status, x.current?.id ?? null, x.current?.name ?? null, x.current?.level ?? null, x.successors.map((s) => s.id).join(";")];
}
