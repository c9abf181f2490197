/** @jsxImportSource hono/jsx */
/**
 * Portal page: addresses to region codes (issue 24) for people without code. Paste up to 100
 * addresses (one a line) or upload a CSV of one column, see the parsed table with the confidence of
 * each answer, download it as CSV. Served by the very declaration POST /api/v1/wilayah/address is
 * (validation, cache, admission): each address is one call of the signed-in user's quota, the batch
 * is refused whole when quota and credits cannot cover it. Calls made here are metered under the
 * key id `portal` (no API key is involved).
 */
import { Hono } from "hono";
import { admitDataCall } from "../catalogue";
import type { DataContext } from "../data/context";
import { serveDataCall } from "../data/run";
import { gate, PORTAL_KEY_ID } from "../gate";
import { csvLine, readCsvColumn } from "../lib/csv";
import { ApiError } from "../lib/errors";
import { ADDRESS_BATCH_MAX, ADDRESS_MAX_LENGTH, addressBatchEndpoint } from "../wilayah/addresses/endpoints";
import type { AddressAnswer } from "../wilayah/addresses/service";
import { ListTable } from "./components";
import { errorNotice, lang, type PortalEnv, page, signedIn } from "./context";
import { formatNumber, type Lang, type T, translator } from "./i18n";
import { Csrf, Layout, type Notice, NoticeBox, type Page, VerifyFirst } from "./layout";
import { reportHref } from "./reports";

/** The key id the portal's own data calls are metered under (usage per key shows it as the portal): the gate's, one definition. */
export const PORTAL_CALLS_KEY = PORTAL_KEY_ID;
/** An uploaded CSV larger than this is refused before it is read (100 addresses of 500 characters fit many times). */
const FILE_MAX_BYTES = 512 * 1024;
/** A first line that names the column, not an address. */
const HEADER = /^(address|addresses|alamat|alamat lengkap)$/i;

export const addressPages = new Hono<PortalEnv>();

addressPages.get("/addresses", signedIn, (c) => c.html(<AddressesPage p={page(c)} notice={null} pasted="" />));

/** Each address is a call of the user's quota (admitted by the data runner); the request counts against the plan's rate, as an API call does. */
addressPages.post("/addresses", signedIn, gate({ meter: "rate" }), async (c) => {
  const u = c.get("user");
  const p = page(c);
  const t = translator(lang(c));
  const body = await c.req.parseBody();
  const pasted = typeof body.addresses === "string" ? body.addresses : "";
  const file = body.file instanceof File && body.file.size > 0 ? body.file : null;
  const fail = (notice: Notice, status: 400 | 402 | 403 | 429 | 503) => c.html(<AddressesPage p={p} notice={notice} pasted={pasted} />, status);
  if (!u.emailVerified) return fail({ kind: "err", text: t("addresses_verify") }, 403);
  if (file && file.size > FILE_MAX_BYTES) return fail({ kind: "err", text: t("addresses_file_too_big") }, 400);
  const list = file
    ? readCsvColumn(await file.text())
    : pasted
        .split(/\r\n|\n|\r/)
        .map((line) => line.trim())
        .filter(Boolean);
  if (list.length > 0 && HEADER.test(list[0])) list.shift();
  if (list.length === 0) return fail({ kind: "err", text: t("addresses_none") }, 400);
  if (list.length > ADDRESS_BATCH_MAX) return fail({ kind: "err", text: t("addresses_too_many", { n: list.length, max: ADDRESS_BATCH_MAX }) }, 400);
  const waitUntil = (promise: Promise<unknown>) => c.executionCtx.waitUntil(promise);
  const call: DataContext = { env: c.env, principal: { keyId: PORTAL_CALLS_KEY, userId: u.id, plan: u.plan }, requestId: c.get("requestId"), waitUntil };
  try {
    const result = await serveDataCall(addressBatchEndpoint, { addresses: list }, call, admitDataCall);
    const answers = (JSON.parse(result.json) as { data: AddressAnswer[] }).data;
    return c.html(<AddressesPage p={p} notice={null} pasted={file ? "" : pasted} answers={answers} />);
  } catch (e) {
    const status = e instanceof ApiError && [400, 402, 403, 429, 503].includes(e.status) ? (e.status as 400 | 402 | 403 | 429 | 503) : null;
    if (status === null) throw e;
    return fail(errorNotice(c, e), status);
  }
});

/** The table the page showed, back as a file: the CSV the answer page put in its form (no second call, nothing stored). */
addressPages.post("/addresses/csv", signedIn, async (c) => {
  const body = await c.req.parseBody();
  const csv = typeof body.csv === "string" ? body.csv : "";
  if (!csv || csv.length > FILE_MAX_BYTES * 4) throw new ApiError("VALIDATION_ERROR", "Nothing to download: resolve addresses first.");
  return c.body(csv, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": 'attachment; filename="wilayah-addresses.csv"',
  });
});

// ---------------------------------------------------------------- views

const CSV_COLUMNS = [
  "input",
  "kelurahan_id",
  "kelurahan",
  "kecamatan_id",
  "kecamatan",
  "kabupaten_id",
  "kabupaten",
  "provinsi_id",
  "provinsi",
  "postal_code",
  "level",
  "confidence",
  "warnings",
  "alternatives",
  "street",
  "house_number",
  "rt",
  "rw",
  "block",
  "building",
  "complex",
  "dusun",
  "postal_code_written",
];

/** The answers as a CSV sheet (a BOM first, so spreadsheet programs read UTF-8), one row per address. */
export function answersCsv(answers: AddressAnswer[]): string {
  const rows = answers.map((a) =>
    csvLine([
      a.input,
      a.kelurahan?.id ?? null,
      a.kelurahan?.name ?? null,
      a.kecamatan?.id ?? null,
      a.kecamatan?.name ?? null,
      a.kabupaten?.id ?? null,
      a.kabupaten?.name ?? null,
      a.provinsi?.id ?? null,
      a.provinsi?.name ?? null,
      a.postal_code,
      a.level,
      a.confidence,
      a.warnings.join(" "),
      a.alternatives.map((x) => x.id).join(" "),
      a.components.street,
      a.components.house_number,
      a.components.rt,
      a.components.rw,
      a.components.block,
      a.components.building,
      a.components.complex,
      a.components.dusun,
      a.components.postal_code,
    ]),
  );
  return `\uFEFF${[csvLine(CSV_COLUMNS), ...rows].join("\r\n")}\r\n`;
}

const percent = (lang: Lang, x: number) => `${formatNumber(lang, Math.round(x * 100))}%`;
const confidenceClass = (x: number) => (x >= 0.9 ? "ok" : x >= 0.5 ? "warn" : "err");

function Region(props: { r: { id: string; name: string } | null }) {
  if (!props.r) return <span class="muted">–</span>;
  return (
    <>
      {props.r.name} <code class="muted">{props.r.id}</code>
    </>
  );
}

function warningText(t: T, w: AddressAnswer["warnings"][number]): string {
  return t(`warning_${w}`);
}

function Notes(props: { p: Page; a: AddressAnswer }) {
  const { p, a } = props;
  const found = a.kelurahan ?? a.kecamatan ?? a.kabupaten ?? a.provinsi;
  return (
    <>
      {a.level === null ? <div>{p.t("addresses_not_found")}</div> : a.level !== "kelurahan" ? <div>{p.t(`addresses_level_${a.level}`)}</div> : null}
      {a.warnings.map((w) => (
        <div>{warningText(p.t, w)}</div>
      ))}
      {found ? (
        <div>
          <a href={reportHref(found.id)} data-testid="address-report">
            {p.t("report_link")}
          </a>
        </div>
      ) : null}
      {a.alternatives.length ? (
        <div class="muted">
          {p.t("addresses_alternatives")}: {a.alternatives.map((x) => `${x.name} (${x.parent ?? x.id}, ${percent(p.lang, x.confidence)})`).join("; ")}
        </div>
      ) : null}
    </>
  );
}

function Results(props: { p: Page; answers: AddressAnswer[] }) {
  const { p, answers } = props;
  const sure = answers.filter((a) => a.confidence >= 0.9).length;
  return (
    <div class="card" data-testid="address-results">
      <h2>{p.t("addresses_results", { n: formatNumber(p.lang, answers.length) })}</h2>
      <p class="muted">{p.t("addresses_summary", { calls: formatNumber(p.lang, answers.length), sure: formatNumber(p.lang, sure) })}</p>
      <form method="post" action="/portal/addresses/csv" class="mt">
        <Csrf p={p} />
        <textarea name="csv" hidden>
          {answersCsv(answers)}
        </textarea>
        <button type="submit" class="secondary" data-testid="address-download">
          {p.t("addresses_download")}
        </button>
      </form>
      <div class="table-wrap mt">
        <ListTable
          rows={answers}
          class="addresses"
          rowAttrs={() => ({ "data-testid": "address-row" })}
          columns={[
            { label: "#", num: true, cell: (_, i) => i + 1 },
            { label: p.t("col_address"), cell: (a) => a.input },
            { label: p.t("col_kelurahan"), cell: (a) => <Region r={a.kelurahan} /> },
            { label: p.t("col_kecamatan"), cell: (a) => <Region r={a.kecamatan} /> },
            { label: p.t("col_kabupaten"), cell: (a) => <Region r={a.kabupaten} /> },
            { label: p.t("col_provinsi"), cell: (a) => <Region r={a.provinsi} /> },
            { label: p.t("col_postal_code"), cell: (a) => a.postal_code ?? <span class="muted">–</span> },
            {
              label: p.t("col_confidence"),
              num: true,
              cell: (a) => <span class={`badge ${confidenceClass(a.confidence)}`}>{percent(p.lang, a.confidence)}</span>,
            },
            { label: p.t("col_notes"), cell: (a) => <Notes p={p} a={a} /> },
          ]}
        />
      </div>
    </div>
  );
}

function AddressesPage(props: { p: Page; notice: Notice; pasted: string; answers?: AddressAnswer[] }) {
  const { p } = props;
  const verified = p.user?.emailVerified ?? false;
  return (
    <Layout p={p} title={p.t("addresses_title")}>
      <h1>{p.t("addresses_title")}</h1>
      <NoticeBox n={props.notice} />
      {verified ? null : <VerifyFirst p={p} email={p.user?.email ?? ""} />}
      <div class="card">
        <p class="muted">{p.t("addresses_intro", { max: ADDRESS_BATCH_MAX })}</p>
        <form method="post" action="/portal/addresses" enctype="multipart/form-data">
          <Csrf p={p} />
          <label for="addresses">{p.t("addresses_paste")}</label>
          <textarea id="addresses" name="addresses" rows={8} aria-describedby="addresses-hint" placeholder={p.t("addresses_placeholder")} disabled={!verified}>
            {props.pasted}
          </textarea>
          <p class="hint" id="addresses-hint">
            {p.t("addresses_paste_hint", { max: ADDRESS_BATCH_MAX, chars: ADDRESS_MAX_LENGTH })}
          </p>
          <label for="addresses-file">{p.t("addresses_file")}</label>
          <input
            id="addresses-file"
            name="file"
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            aria-describedby="addresses-file-hint"
            disabled={!verified}
          />
          <p class="hint" id="addresses-file-hint">
            {p.t("addresses_file_hint")}
          </p>
          <button type="submit" class="mt" disabled={!verified} data-testid="address-submit">
            {p.t("addresses_submit")}
          </button>
        </form>
      </div>
      {props.answers ? <Results p={p} answers={props.answers} /> : null}
    </Layout>
  );
}
