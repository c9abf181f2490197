/**
 * The portal's stylesheet and script, served by the Worker as files (the CSP allows no inline
 * script or style). Small enough to keep here; no build step, nothing from a CDN.
 */

export const CSS = `
:root{--bg:#f6f7f9;--fg:#17202a;--muted:#5b6673;--card:#fff;--line:#dde2e8;--accent:#0b6e4f;--accent-fg:#fff;--warn:#8a5a00;--warn-bg:#fff6e0;--err:#a4262c;--err-bg:#fdecec;--ok:#0b6e4f;--ok-bg:#e6f4ee}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}
header.top{background:#10302a;color:#fff}
header.top .bar{max-width:1040px;margin:0 auto;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center}
header.top a{color:#fff;text-decoration:none}
header.top .brand{font-weight:700;font-size:1.1rem;margin-right:auto}
header.top nav{display:flex;flex-wrap:wrap;gap:.2rem .9rem;align-items:center}
header.top nav a{opacity:.85;padding:.2rem 0}
header.top nav a[aria-current=page]{opacity:1;border-bottom:2px solid #7fd1b1}
header.top form{margin:0}
header.top .linkish{background:none;border:0;color:#fff;opacity:.85;font:inherit;cursor:pointer;padding:.2rem 0}
main{max-width:1040px;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:0 0 .75rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem;margin:0 0 1rem}
.narrow{max-width:440px;margin:1.5rem auto}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(220px,1fr))}
label{display:block;font-weight:600;margin:.6rem 0 .25rem}
input[type=text],input[type=email],input[type=url],input[type=password],input[type=number],input[type=search],input[type=date],select,textarea{width:100%;padding:.55rem .6rem;border:1px solid #b9c2cc;border-radius:6px;font:inherit;background:#fff}
.hint{color:var(--muted);font-size:.875rem;margin:.25rem 0 0}
button,.button{display:inline-block;background:var(--accent);color:var(--accent-fg);border:0;border-radius:6px;padding:.55rem 1rem;font:inherit;font-weight:600;cursor:pointer;text-decoration:none;text-align:center}
button.secondary,.button.secondary{background:#e8ecf0;color:var(--fg)}
button:disabled,button:disabled:hover{background:#d5dbe1;color:#4f5b67;cursor:not-allowed;box-shadow:none}
input:disabled{background:#eef1f4;color:#4f5b67;cursor:not-allowed}
button.danger{background:var(--err)}
button.small{padding:.3rem .65rem;font-size:.875rem}
.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
.row>*{flex:1 1 auto}
.row>button,.row>.button{flex:0 0 auto}
.stack>*+*{margin-top:.75rem}
.card>p:first-child,.card>.muted:first-child{margin-top:0}
.back{display:inline-block;margin:.25rem 0 0}
.mt{margin-top:.75rem}
.full{width:100%}
.notice{border-radius:8px;padding:.75rem 1rem;margin:0 0 1rem;border:1px solid}
.notice.ok{background:var(--ok-bg);border-color:#9fd3bd;color:var(--ok)}
.notice.err{background:var(--err-bg);border-color:#f0b3b5;color:var(--err)}
.notice.warn{background:var(--warn-bg);border-color:#f0d48a;color:var(--warn)}
.notice ul{margin:.25rem 0 0;padding-left:1.2rem}
.secret{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
.secret code{flex:1 1 280px;background:#0f1720;color:#c8facc;padding:.6rem .7rem;border-radius:6px;word-break:break-all;font-size:.95rem}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.5rem .4rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.03em;color:var(--muted)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.table-wrap{overflow-x:auto}
.badge{display:inline-block;border-radius:999px;padding:.05rem .55rem;font-size:.8rem;font-weight:600;background:#e8ecf0}
.badge.ok,.badge.PAID,.badge.active{background:var(--ok-bg);color:var(--ok)}
.badge.err,.badge.FAILED,.badge.EXPIRED,.badge.suspended,.badge.revoked{background:var(--err-bg);color:var(--err)}
.badge.UNPAID,.badge.warn{background:var(--warn-bg);color:var(--warn)}
textarea{resize:vertical;font-size:.95rem}
input[type=file]{display:block;max-width:100%;font:inherit}
table.addresses td{font-size:.9rem;overflow-wrap:anywhere}
table.addresses td code{font-size:.8rem}
.big{font-size:2rem;font-weight:700;font-variant-numeric:tabular-nums}
.muted{color:var(--muted)}
.oauth{display:grid;gap:.5rem;margin:.5rem 0}
.divider{text-align:center;color:var(--muted);margin:.75rem 0}
.plans{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(200px,1fr))}
.plan{display:flex;flex-direction:column}
.plan h3{margin:0;display:flex;justify-content:space-between;align-items:center;gap:.5rem}
.plan .price{font-size:1.3rem;font-weight:700;margin:.3rem 0}
.plan .price .muted{font-size:.9rem;font-weight:400;white-space:nowrap}
.plan form{margin-top:auto}
.plan ul{padding-left:1.1rem;margin:.5rem 0}
.plan.current{border-color:var(--accent);box-shadow:0 0 0 2px #b5e3cf}
.pay{display:grid;gap:1rem;grid-template-columns:minmax(0,320px) 1fr;align-items:start}
.pay.closed{grid-template-columns:1fr}
.pay img{width:100%;max-width:320px;background:#fff;border:1px solid var(--line);border-radius:8px}
.chart svg{width:100%;height:auto;display:block}
@media (max-width:600px){.chart svg.day-chart text{font-size:20px}}
.tabs{display:flex;flex-wrap:wrap;gap:.4rem;margin:0 0 1rem}
.tabs a{padding:.3rem .7rem;border-radius:999px;background:#e8ecf0;text-decoration:none;color:var(--fg);font-size:.9rem}
.tabs a[aria-current=page]{background:var(--accent);color:#fff}
.pager{display:flex;gap:.75rem;align-items:center;justify-content:space-between;margin-top:.75rem}
footer{max-width:1040px;margin:0 auto;padding:1rem;color:var(--muted);font-size:.85rem}
.inline{display:inline}
fieldset{border:1px solid #d8dee4;border-radius:6px;margin:.6rem 0;padding:.4rem .8rem}
label.check{display:flex;gap:.4rem;align-items:center;font-weight:normal;margin:.2rem 0}
td.actions form{display:inline-block;margin:0 .25rem .25rem 0}
form.roll select{width:auto;padding:.25rem .4rem;font-size:.875rem}
.origins{overflow-wrap:anywhere}
ol.attempts{margin:0;padding-left:1.2rem;font-size:.85rem}
pre.try{background:#0f1720;color:#dfe7ef;padding:.7rem;border-radius:6px;overflow-x:auto;font-size:.85rem}
input[type=datetime-local]{width:100%;padding:.5rem .6rem;border:1px solid #b9c2cc;border-radius:6px;font:inherit;background:#fff}
.filter-grid{display:grid;gap:0 1rem;grid-template-columns:repeat(auto-fit,minmax(200px,1fr))}
.filter-grid .wide{grid-column:1/-1}
table.requests td{font-size:.9rem}
table.requests code{font-size:.8rem;overflow-wrap:anywhere}
a.reqid{text-decoration:none}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
ul.alerts{list-style:none;padding:0;margin:0}
ul.alerts li{padding:.35rem 0;border-bottom:1px solid var(--line)}
progress{width:100%;height:.8rem;accent-color:var(--accent)}
h3{font-size:1rem;margin:1rem 0 .5rem}
@media (max-width:640px){
  main{padding:.75rem}
  .pay{grid-template-columns:1fr}
  .pay.closed{grid-template-columns:1fr}
.pay img{max-width:260px;margin:0 auto;display:block}
  table.responsive thead{display:none}
  table.responsive tr{display:block;border-bottom:1px solid var(--line);padding:.4rem 0}
  table.responsive td{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 1rem;border:0;padding:.2rem 0;text-align:right;overflow-wrap:anywhere}
  table.responsive td::before{content:attr(data-label);font-weight:600;color:var(--muted);text-align:left}
  progress{width:100%;height:1rem}
  table.responsive td.num{text-align:right}
  dl.facts{grid-template-columns:1fr}
  dl.facts dd{margin-bottom:.4rem}
}
`;

/**
 * A receipt (kwitansi): one A4 page on paper or in a PDF (the toolbar is not printed), a sheet on
 * a screen, one column on a phone.
 */
export const RECEIPT_CSS = `
@page{size:A4;margin:14mm}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#17202a;background:#e9edf1}
.toolbar{max-width:210mm;margin:0 auto;padding:.75rem 1rem;display:flex;justify-content:space-between;align-items:center;gap:1rem;flex-wrap:wrap}
.toolbar a{color:#0b6e4f}
.toolbar button{background:#0b6e4f;color:#fff;border:0;border-radius:6px;padding:.55rem 1rem;font:inherit;font-weight:600;cursor:pointer}
.sheet{display:block;background:#fff;max-width:210mm;min-height:200mm;margin:0 auto 2rem;padding:16mm;box-shadow:0 1px 4px rgba(0,0,0,.15)}
.head{display:flex;justify-content:space-between;gap:1.5rem;border-bottom:2px solid #0b6e4f;padding-bottom:1rem}
.seller-name{font-size:1.35rem;font-weight:700;color:#0b6e4f}
.title{text-align:right}
h1{font-size:1.6rem;letter-spacing:.08em;margin:0 0 .4rem}
h1 .en{display:block;font-size:.8rem;letter-spacing:.2em}
.meta{display:grid;grid-template-columns:auto auto;gap:.1rem .75rem;margin:0;justify-content:end}
.meta dt{color:#5b6673}
.meta dd{margin:0;font-weight:600}
.stamp{display:inline-block;margin-top:.6rem;border:2px solid #0b6e4f;color:#0b6e4f;padding:.15rem .6rem;font-weight:700;border-radius:4px;letter-spacing:.05em}
.stamp.refunded{border-color:#a4262c;color:#a4262c}
h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#5b6673;margin:1.4rem 0 .4rem}
h2 .en{text-transform:none;letter-spacing:0}
.en{color:#5b6673;font-weight:400}
.buyer-name{font-size:1.1rem;font-weight:700}
.muted{color:#5b6673}
table.items{width:100%;border-collapse:collapse}
.items th,.items td{padding:.5rem .4rem;border-bottom:1px solid #dde2e8;text-align:left;vertical-align:top}
.items thead th{font-size:.8rem;color:#5b6673;font-weight:600}
.items td .en{font-size:.85rem}
.num{text-align:right!important;font-variant-numeric:tabular-nums;white-space:nowrap}
.items tfoot th{text-align:right;border-bottom:0}
.items tfoot td{border-bottom:0}
.total{font-size:1.2rem;font-weight:700}
.words{background:#f3f6f4;border-left:3px solid #0b6e4f;padding:.6rem .8rem;margin:.9rem 0 0}
.words .label{color:#5b6673}
.payment dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}
.payment dt{color:#5b6673}
.payment dd{margin:0;overflow-wrap:anywhere}
.foot{margin-top:2.5rem;padding-top:.75rem;border-top:1px solid #dde2e8;font-size:.8rem;color:#5b6673}
@media print{
  body{background:#fff}
  .toolbar{display:none}
  .sheet{box-shadow:none;margin:0;padding:0;max-width:none;min-height:0}
}
@media (max-width:640px){
  .sheet{padding:1rem;min-height:0}
  .head{flex-direction:column}
  .title{text-align:left}
  .meta{justify-content:start}
  .items th,.items td{padding:.45rem .25rem}
  .items thead .en{display:block}
  .payment dl{grid-template-columns:1fr;gap:0}
  .payment dd{margin-bottom:.4rem}
}
`;

/**
 * Progressive enhancement only: copy buttons, confirmations before destructive forms, the
 * invoice's countdown and live status. Every page works without it (except the live parts and
 * the bulk jobs page, whose upload sends the file as it is, which a form cannot).
 */
export const JS = `
"use strict";
(function () {
  document.addEventListener("click", function (e) {
    var btn = e.target.closest ? e.target.closest("[data-copy]") : null;
    if (!btn) return;
    var el = document.getElementById(btn.getAttribute("data-copy"));
    if (!el) return;
    var text = el.textContent.trim();
    var done = function () { var old = btn.textContent; btn.textContent = btn.getAttribute("data-copied") || "Copied"; setTimeout(function () { btn.textContent = old; }, 2000); };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () { selectText(el); });
    else selectText(el);
  });
  function selectText(el) { var r = document.createRange(); r.selectNodeContents(el); var s = window.getSelection(); s.removeAllRanges(); s.addRange(r); }

  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("[data-print]")) window.print();
  });

  document.addEventListener("submit", function (e) {
    var msg = e.target.getAttribute && e.target.getAttribute("data-confirm");
    if (msg && !window.confirm(msg)) e.preventDefault();
  });

  var inv = document.querySelector("[data-invoice-url]");
  if (!inv) return;
  var statusEl = document.getElementById("invoice-status");
  var countdown = document.getElementById("invoice-countdown");
  var balanceEl = document.getElementById("invoice-balance");
  var paidEl = document.getElementById("invoice-paid");
  var labels = JSON.parse(inv.getAttribute("data-labels") || "{}");
  var expires = Date.parse(inv.getAttribute("data-expires"));
  var status = inv.getAttribute("data-status");
  function pad(n) { return n < 10 ? "0" + n : String(n); }
  function tick() {
    if (!countdown) return;
    if (status !== "UNPAID") { countdown.textContent = ""; return; }
    var s = Math.max(0, Math.floor((expires - Date.now()) / 1000));
    countdown.textContent = labels.expires_in + " " + Math.floor(s / 60) + ":" + pad(s % 60);
  }
  function show(data) {
    status = data.invoice.status;
    statusEl.textContent = labels["inv_" + status] || status;
    statusEl.className = "badge " + status;
    inv.setAttribute("data-status", status);
    if (status !== "UNPAID") {
      ["invoice-qr", "invoice-scan", "invoice-deadline"].forEach(function (id) { var el = document.getElementById(id); if (el) el.hidden = true; });
      var pay = inv.querySelector(".pay");
      if (pay) pay.className = "pay closed";
    }
    if (status === "PAID") {
      if (paidEl) paidEl.hidden = false;
      if (balanceEl && typeof data.balance === "number") balanceEl.textContent = data.balance_text;
    }
    tick();
  }
  function poll() {
    if (status !== "UNPAID") return;
    fetch(inv.getAttribute("data-invoice-url"), { headers: { accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) { if (d) show(d); })
      .catch(function () {})
      .then(function () { if (status === "UNPAID") setTimeout(poll, 2000); });
  }
  tick();
  setInterval(tick, 1000);
  setTimeout(poll, 1500);
})();
(function () {
  var box = document.querySelector("[data-jobs]");
  if (!box) return;
  var labels = JSON.parse(box.getAttribute("data-labels") || "{}");
  var csrf = box.getAttribute("data-csrf");
  var available = Number(box.getAttribute("data-available"));
  var file = document.getElementById("job-file"), kind = document.getElementById("job-kind"), column = document.getElementById("job-column");
  var cost = document.getElementById("job-cost"), start = document.getElementById("job-start"), run = document.getElementById("job-run");
  var statusEl = document.getElementById("job-status"), bar = document.getElementById("job-progress"), errorEl = document.getElementById("job-error");
  var cancel = document.getElementById("job-cancel"), download = document.getElementById("job-download");
  var fmt = function (n) { return Number(n).toLocaleString(document.documentElement.lang || "en"); };
  var fill = function (text, values) { return String(text).replace(/{(\\w+)}/g, function (_, k) { return values[k] !== undefined ? values[k] : ""; }); };
  var jobId = null;
  function showError(text) { errorEl.textContent = text; errorEl.hidden = !text; }
  // The list of past jobs as the server draws it (a job just started or ended shows without a reload).
  // Only the latest request's answer is drawn: the one sent at the start can come back after the one
  // sent at the end (a slow server), and would show a finished job as queued.
  var listSeq = 0;
  function refreshList() {
    var seq = ++listSeq;
    fetch("/portal/jobs", { headers: { accept: "text/html" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html || seq !== listSeq) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("job-list-card");
        var card = document.getElementById("job-list-card");
        if (fresh && card) card.replaceChildren.apply(card, Array.prototype.slice.call(fresh.childNodes));
      }, function () {});
  }
  kind.addEventListener("change", function () {
    if (column.value === "address" || column.value === "code") column.value = kind.value === "convert" ? "code" : "address";
  });
  file.addEventListener("change", function () {
    start.disabled = true;
    showError("");
    var f = file.files && file.files[0];
    if (!f) { cost.textContent = ""; return; }
    cost.textContent = labels.counting;
    f.text().then(function (text) {
      var lines = text.split(/\\r\\n|\\n|\\r/).filter(function (l) { return l.trim() !== ""; }).length;
      var rows = /\\.(jsonl|ndjson)$/i.test(f.name) ? lines : Math.max(0, lines - 1);
      var over = rows > available;
      // The cost beside what the month still allows, before the click: a job beyond it would be refused.
      cost.textContent = fill(labels.cost, { rows: fmt(rows) }) + (over ? " " + fill(labels.over, { available: fmt(available) }) : "");
      cost.className = over ? "notice warn" : "";
      start.disabled = rows === 0 || over;
    });
  });
  function show(job) {
    var total = job.rows.total || 1;
    bar.max = total;
    bar.value = job.rows.done;
    var text = (labels[job.state] || job.state) + " · " + fill(labels.progress, { done: fmt(job.rows.done), total: fmt(job.rows.total) });
    if (job.state === "running" && job.estimated_seconds_left !== null) text += " · " + fill(labels.left, { s: fmt(job.estimated_seconds_left) });
    statusEl.textContent = text;
    showError(job.error || "");
    var over = job.state === "done" || job.state === "failed" || job.state === "cancelled";
    cancel.hidden = over;
    if (over && job.rows.done > 0) { download.href = "/portal/jobs/" + job.id + "/result"; download.hidden = false; }
    return over;
  }
  function poll() {
    fetch("/portal/jobs/" + jobId + "/status", { headers: { accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) { return d ? show(d.data) : false; }, function () { return false; })
      .then(function (over) { if (over) refreshList(); else setTimeout(poll, 1000); });
  }
  // Refused (no job was made): the reason alone, no progress bar and no Cancel for a job that does not exist.
  function refused(message) {
    run.hidden = true;
    showError(labels.not_started + (message ? " " + message : ""));
    start.disabled = false;
  }
  start.addEventListener("click", function () {
    var f = file.files && file.files[0];
    if (!f) return;
    start.disabled = true;
    showError("");
    run.hidden = true;
    download.hidden = true;
    var type = /\\.(jsonl|ndjson)$/i.test(f.name) ? "application/x-ndjson" : "text/csv";
    fetch("/portal/jobs/upload?kind=" + encodeURIComponent(kind.value) + "&column=" + encodeURIComponent(column.value), {
      method: "POST", body: f, credentials: "same-origin", headers: { "content-type": type, accept: "application/json", "x-csrf-token": csrf }
    })
      .then(function (r) { return r.json().then(function (d) { return { ok: r.ok, d: d }; }); })
      .then(function (res) {
        if (!res.ok) { refused(res.d.error ? res.d.error.message : ""); return; }
        jobId = res.d.data.id;
        run.hidden = false;
        refreshList();
        if (show(res.d.data)) refreshList(); else setTimeout(poll, 1000);
      }, function () { refused(""); });
  });
  cancel.addEventListener("click", function () {
    if (!jobId) return;
    fetch("/portal/jobs/" + jobId + "/cancel", { method: "POST", credentials: "same-origin", headers: { accept: "application/json", "x-csrf-token": csrf } })
      .then(function (r) { return r.json(); })
      .then(function (d) { if (d.data && show(d.data)) refreshList(); });
  });
})();
`;
