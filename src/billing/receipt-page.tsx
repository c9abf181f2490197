/** @jsxImportSource hono/jsx */
/**
 * A receipt (kwitansi) as a document: one A4 page that prints clean from the browser (the print
 * stylesheet drops the toolbar; "Save as PDF" gives the file finance keeps). Indonesian first, as
 * an Indonesian finance department files it, with English beside each label. Served by GET
 * /billing/receipts/:id (Accept: text/html) and the portal. Its look is /portal/assets/receipt.css:
 * no inline style or script (the CSP allows none).
 */
import { raw } from "hono/html";
import { formatNpwp } from "./receipts";
import type { ReceiptView } from "./schemas";

const idr = (n: number) => `Rp${n.toLocaleString("id-ID")}`;
const longDate = (isoTime: string, lang: "id" | "en") =>
  new Date(isoTime).toLocaleString(lang === "id" ? "id-ID" : "en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "Asia/Jakarta" });

/** A label in Indonesian with its English beside it. */
const Label = (props: { id: string; en: string }) => (
  <>
    {props.id} <span class="en">/ {props.en}</span>
  </>
);

export function ReceiptDocument(props: { r: ReceiptView; back?: string }) {
  const { r } = props;
  const b = r.buyer;
  return (
    <>
      {raw("<!doctype html>")}
      <html lang="id">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`Kwitansi ${r.number} · ${r.seller.name}`}</title>
          <link rel="stylesheet" href="/portal/assets/receipt.css" />
          <script src="/portal/assets/app.js" defer></script>
        </head>
        <body>
          <nav class="toolbar" aria-label="Kwitansi / Receipt">
            {props.back ? <a href={props.back}>← Kembali / Back</a> : <span></span>}
            <button type="button" data-print>
              Cetak atau simpan PDF / Print or save as PDF
            </button>
          </nav>
          <main class="sheet" data-testid="receipt">
            <header class="head">
              <div class="seller">
                <div class="seller-name">{r.seller.name}</div>
                {r.seller.address ? <div>{r.seller.address}</div> : null}
                {r.seller.npwp ? <div>NPWP {formatNpwp(r.seller.npwp)}</div> : null}
              </div>
              <div class="title">
                <h1>
                  KWITANSI <span class="en">RECEIPT</span>
                </h1>
                <dl class="meta">
                  <dt>
                    <Label id="Nomor" en="No." />
                  </dt>
                  <dd data-testid="receipt-number">{r.number}</dd>
                  <dt>
                    <Label id="Tanggal" en="Date" />
                  </dt>
                  <dd>{longDate(r.issued_at, "id")} WIB</dd>
                </dl>
                <div class={`stamp ${r.status}`}>{r.status === "paid" ? "LUNAS / PAID" : "DIKEMBALIKAN / REFUNDED"}</div>
              </div>
            </header>

            <section class="party" aria-label="Telah terima dari / Received from">
              <h2>
                <Label id="Telah terima dari" en="Received from" />
              </h2>
              <div class="buyer">
                <div class="buyer-name" data-testid="receipt-buyer">
                  {b.company_name ?? b.name}
                </div>
                {b.company_name ? <div>u.p. {b.name}</div> : null}
                {b.npwp ? <div data-testid="receipt-npwp">NPWP {formatNpwp(b.npwp)}</div> : null}
                {b.address ? <div>{b.address}</div> : null}
                <div class="muted">{b.email}</div>
              </div>
            </section>

            <section aria-label="Untuk pembayaran / For">
              <h2>
                <Label id="Untuk pembayaran" en="For" />
              </h2>
              <table class="items">
                <thead>
                  <tr>
                    <th>
                      <Label id="Uraian" en="Description" />
                    </th>
                    <th class="num">
                      <Label id="Jml" en="Qty" />
                    </th>
                    <th class="num">
                      <Label id="Harga" en="Price" />
                    </th>
                    <th class="num">
                      <Label id="Jumlah" en="Amount" />
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {r.items.map((item) => (
                    <tr>
                      <td>
                        {item.description}
                        <div class="en">{item.description_en}</div>
                      </td>
                      <td class="num">{item.quantity}</td>
                      <td class="num">{idr(item.unit_price)}</td>
                      <td class="num">{idr(item.amount)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th colspan={3}>Total</th>
                    <td class="num total" data-testid="receipt-total">
                      {idr(r.total)}
                    </td>
                  </tr>
                </tfoot>
              </table>
              <p class="words">
                <span class="label">
                  <Label id="Terbilang" en="In words" />:
                </span>{" "}
                <em data-testid="receipt-words">{r.total_in_words}</em>
              </p>
            </section>

            <section class="payment" aria-label="Pembayaran / Payment">
              <h2>
                <Label id="Pembayaran" en="Payment" />
              </h2>
              <dl>
                <dt>
                  <Label id="Metode" en="Method" />
                </dt>
                <dd>
                  {r.payment.method} ({r.payment.provider})
                </dd>
                <dt>
                  <Label id="Referensi Tripay" en="Tripay reference" />
                </dt>
                <dd data-testid="receipt-reference">{r.payment.reference ?? "–"}</dd>
                <dt>
                  <Label id="Nomor tagihan" en="Invoice" />
                </dt>
                <dd>{r.id}</dd>
              </dl>
            </section>

            <footer class="foot">
              Kwitansi ini dibuat secara elektronik dan sah tanpa tanda tangan. Kwitansi ini bukan faktur pajak.
              <span class="en"> This receipt was issued electronically and is valid without a signature. It is not a tax invoice (faktur pajak).</span>
            </footer>
          </main>
        </body>
      </html>
    </>
  );
}

/** The receipt page as HTML text (for a route that renders no JSX of its own). */
export function receiptHtml(r: ReceiptView, back?: string): string {
  return String(<ReceiptDocument r={r} back={back} />);
}
