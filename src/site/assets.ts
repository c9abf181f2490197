/**
 * The front door's stylesheet and script, on top of the portal's (/portal/assets/app.css and app.js:
 * base styles, copy buttons). Served as files: the CSP allows no inline script or style.
 */

export const SITE_CSS = `
.skip{position:absolute;left:-999px;top:0;background:#fff;color:var(--fg);padding:.5rem 1rem;z-index:10}
.skip:focus{left:.5rem;top:.5rem}
a:focus-visible,button:focus-visible,input:focus-visible,pre:focus-visible,select:focus-visible{outline:3px solid #f2b705;outline-offset:2px}
.hero{padding:1.5rem 0 .5rem}
.hero h1{font-size:2rem;line-height:1.2;margin:.25rem 0 .75rem}
.hero .lead{font-size:1.15rem}
.cta{display:flex;flex-wrap:wrap;gap:.5rem}
.demo-grid{display:grid;gap:1.5rem;grid-template-columns:repeat(auto-fit,minmax(300px,1fr))}
.demo-grid h3{margin:.25rem 0 .5rem;font-size:1rem}
.results{padding-left:1.2rem;margin:.75rem 0}
.results li{margin:.35rem 0}
.report-link{font-size:.85rem}
.place{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.2rem .75rem;margin:.75rem 0}
.place dt{font-weight:600;color:var(--muted)}
.place dd{margin:0;min-width:0;overflow-wrap:anywhere}
code.hash{word-break:break-all}
svg.map{width:100%;height:auto;display:block;background:#e3eef7;border:1px solid var(--line);border-radius:8px;cursor:crosshair;margin-bottom:.5rem}
svg.map path{fill:#0b6e4f;stroke:#e3eef7;stroke-width:.6}
svg.map path:hover{fill:#0a5a41}
svg.map circle{fill:#f2b705;stroke:#10302a;stroke-width:1}
.facts .big{font-size:1.6rem}
.code{margin:0 0 1rem}
.code-head{display:flex;justify-content:space-between;align-items:center;font-weight:600;margin-bottom:.3rem}
.code pre{background:#0f1720;color:#dfe7ef;padding:.75rem;border-radius:6px;overflow-x:auto;font-size:.85rem;margin:0;white-space:pre}
.guide{max-width:820px}
.guide pre{background:#0f1720;color:#dfe7ef;padding:.75rem;border-radius:6px;overflow-x:auto;font-size:.85rem}
.guide code{font-size:.9em}
.guide :not(pre)>code{overflow-wrap:anywhere}
.guide table{display:block;overflow-x:auto}
.guide .align-right{text-align:right}
.guide .align-center{text-align:center}
.guide-nav{display:flex;flex-wrap:wrap;gap:.4rem;margin:0 0 1rem}
.guide-nav a{padding:.3rem .7rem;border-radius:999px;background:#e8ecf0;text-decoration:none;color:var(--fg);font-size:.9rem}
.guide-nav a[aria-current=page]{background:var(--accent);color:#fff}
.source{border-top:1px solid #e3e7eb;padding:.6rem 0;overflow-wrap:anywhere}
.source h3{margin:.2rem 0 .5rem;font-size:1.05rem}
.source dl{display:grid;grid-template-columns:8.5rem 1fr;gap:.25rem .9rem;margin:0}
.source dt{font-weight:600;color:#4a5560}
.source dd{margin:0}
@media (max-width:640px){.hero h1{font-size:1.55rem}.source dl{grid-template-columns:1fr}.source dt{margin-top:.35rem}}
`;

/**
 * The demo without reloading the page: its two forms answered from /demo/search and /demo/reverse,
 * and a click on the map looked up as a point. Without this file the forms reload the page, which
 * answers them itself.
 */
export const SITE_JS = `
"use strict";
(function () {
  var section = document.getElementById("demo");
  if (!section) return;
  var labels = JSON.parse(section.getAttribute("data-labels") || "{}");
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }
  function show(target, node) { target.textContent = ""; target.appendChild(node); }
  function failure(body) { var d = el("div", "notice err", (body && body.error && body.error.message) || "Error"); d.setAttribute("role", "alert"); return d; }
  function renderSearch(body) {
    if (!body.data.length) return el("p", "muted", labels.none);
    var box = el("div"); var ol = el("ol", "results");
    body.data.forEach(function (r) {
      var li = el("li"); li.appendChild(el("strong", null, r.name)); li.appendChild(document.createTextNode(" "));
      li.appendChild(el("span", "badge", r.level)); li.appendChild(document.createTextNode(" ")); li.appendChild(el("code", null, r.id));
      if (r.parent) li.appendChild(el("div", "muted", r.parent));
      var report = el("a", "report-link", labels.report); report.href = "/portal/report?region=" + encodeURIComponent(r.id); li.appendChild(report);
      ol.appendChild(li);
    });
    box.appendChild(ol);
    if (body.meta.total > body.meta.shown) box.appendChild(el("p", "muted", labels.more.replace("{total}", body.meta.total.toLocaleString()).replace("{n}", body.meta.shown)));
    return box;
  }
  function renderPlace(body) {
    var d = body.data; var dl = el("dl", "place");
    function row(term, r, extra) { if (!r) return; dl.appendChild(el("dt", null, term)); var dd = el("dd", null, r.name + " "); dd.appendChild(el("code", null, r.id)); if (extra) dd.appendChild(el("span", "muted", " " + extra)); dl.appendChild(dd); }
    row("kelurahan/desa", d.kelurahan, d.kelurahan && d.kelurahan.postal_code); row("kecamatan", d.kecamatan); row("kabupaten/kota", d.kabupaten); row("provinsi", d.provinsi);
    if (d.approximate) dl.appendChild(el("dd", "muted", labels.approximate));
    return dl;
  }
  function ask(url, target, render) {
    fetch(url, { headers: { accept: "application/json" } }).then(function (res) {
      return res.json().then(function (body) { show(target, res.ok ? render(body) : failure(body)); });
    }).catch(function () { show(target, failure(null)); });
  }
  document.querySelectorAll("form[data-demo]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var params = new URLSearchParams(new FormData(form));
      if (form.getAttribute("data-demo") === "search") ask("/demo/search?" + params, document.getElementById("demo-search-result"), renderSearch);
      else ask("/demo/reverse?" + params, document.getElementById("demo-reverse-result"), renderPlace);
    });
  });
  var map = document.getElementById("demo-map");
  if (!map) return;
  var box = JSON.parse(map.getAttribute("data-box"));
  map.addEventListener("click", function (e) {
    var pt = map.createSVGPoint(); pt.x = e.clientX; pt.y = e.clientY;
    var p = pt.matrixTransform(map.getScreenCTM().inverse());
    var lng = box.west + p.x / box.scale; var lat = box.north - p.y / box.scale;
    var dot = map.querySelector("circle") || map.appendChild(document.createElementNS("http://www.w3.org/2000/svg", "circle"));
    dot.setAttribute("cx", p.x); dot.setAttribute("cy", p.y); dot.setAttribute("r", 3);
    document.getElementById("demo-lat").value = lat.toFixed(5);
    document.getElementById("demo-lng").value = lng.toFixed(5);
    map.parentNode.querySelector("form[data-demo=reverse]").requestSubmit();
  });
})();
`;
