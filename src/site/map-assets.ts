/**
 * The map's script and stylesheet (/site/assets/map.js, map.css), served as files: the CSP allows
 * no inline script or style. map.js is a module importing MapLibre GL JS from the Worker's assets;
 * MapLibre starts its worker from the sibling file /vendor/maplibre/maplibre-gl-worker.mjs (same
 * origin: the CSP's 'self'), never from a blob URL.
 *
 * On /map (data-wilayah-map="explorer"): hover names, a click's card (GET /demo/region/:id) and the
 * point's regions (GET /demo/reverse), search (GET /demo/search) flying to the first result, the
 * density choropleth. On the landing page (data-wilayah-map="demo"): hover names, and a click fills
 * the demo's coordinates and sends its reverse-geocoding form (answered by site.js). Without WebGL
 * the element keeps what the server drew (the landing page's SVG map) and says why.
 *
 * Tiles come without a key: the page carries the site map's token (src/gate/map-token.ts; in the
 * labels, with when it ends), sent in \`x-map-token\` with every tile and renewed from GET
 * /map/token before it ends. It grants zooms up to 9, so the style's source is capped there
 * (MapLibre draws deeper zooms from zoom 9's tiles: provinces, kabupaten/kota and kecamatan; the
 * village layer, from zoom 10, needs a key).
 */

export const MAP_CSS = `
.map-tools{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-end;justify-content:space-between}
.map-toggle{display:flex;gap:.4rem;align-items:center;font-weight:600}
.map-toggle input{width:auto}
.map-wrap{display:grid;grid-template-columns:minmax(0,1fr) 320px;gap:1rem;align-items:start;margin-top:.5rem}
.map-canvas{position:relative;width:100%;height:70vh;min-height:420px;border:1px solid var(--line);border-radius:8px;overflow:hidden;background:#e3eef7}
.map-canvas.demo{height:380px;min-height:0;margin-bottom:.5rem}
.map-hover{position:absolute;left:.5rem;top:.5rem;z-index:2;background:#fff;border:1px solid var(--line);border-radius:6px;padding:.2rem .5rem;font-weight:600;pointer-events:none}
.map-card{margin:0;max-height:70vh;overflow:auto}
.map-card h2{margin:.1rem 0 .4rem;font-size:1.2rem}
.map-card dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem .6rem;margin:.5rem 0}
.map-card dt{font-weight:600;color:var(--muted)}
.map-card dd{margin:0;overflow-wrap:anywhere}
.map-legend ul{display:flex;flex-wrap:wrap;gap:.6rem;list-style:none;padding:0;margin:.3rem 0}
.map-legend li{display:flex;align-items:center;gap:.3rem}
.swatch{display:inline-block;width:1rem;height:1rem;border:1px solid #999}
.swatch-ffffcc{background:#ffffcc}.swatch-c7e9b4{background:#c7e9b4}.swatch-7fcdbb{background:#7fcdbb}.swatch-41b6c4{background:#41b6c4}
.swatch-1d91c0{background:#1d91c0}.swatch-225ea8{background:#225ea8}.swatch-0c2c84{background:#0c2c84}
#map-results button{background:none;border:0;padding:0;color:var(--accent);text-decoration:underline;cursor:pointer;font:inherit}
@media (max-width:800px){.map-wrap{grid-template-columns:1fr}.map-canvas{height:60vh;min-height:320px}.map-card{max-height:none}}
`;

export const MAP_JS = `
import * as maplibregl from "/vendor/maplibre/maplibre-gl.mjs";

var LEVELS = ["provinsi", "kabupaten", "kecamatan", "kelurahan"];
var FLY_ZOOM = { provinsi: 6, kabupaten: 8.5, kecamatan: 11, kelurahan: 13.5 };

function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }
function getJson(url) {
  return fetch(url, { headers: { accept: "application/json" } }).then(function (res) {
    return res.json().then(function (body) { if (!res.ok) throw new Error((body && body.error && body.error.message) || res.statusText); return body; });
  });
}
function webgl() { try { var c = document.createElement("canvas"); return !!(c.getContext("webgl2") || c.getContext("webgl")); } catch (e) { return false; } }

var host = document.querySelector("[data-wilayah-map]");
if (host) start(host);

// The whole country, Aceh to Papua, with a margin around its bounds that grows with the element.
var INDONESIA = [[94.9, -11.1], [141.1, 6.1]];
function fitFor(host) { return { padding: Math.max(4, Math.min(24, Math.round(Math.min(host.clientWidth, host.clientHeight) / 20))) }; }

async function start(host) {
  var kind = host.getAttribute("data-wilayah-map");
  var labels = JSON.parse(host.getAttribute("data-labels") || "{}");
  var token = labels.token;
  var tokenEnds = labels.token_expires_at ? Date.parse(labels.token_expires_at) : 0;
  // A new token a minute and a half before this one ends (checked every 30 s; a page left open stays drawable).
  setInterval(function () {
    if (Date.now() < tokenEnds - 90000) return;
    getJson("/map/token").then(function (b) { token = b.data.token; tokenEnds = Date.parse(b.data.expires_at); }).catch(function () {});
  }, 30000);
  var minzoom = labels.minzoom;
  var fmt = new Intl.NumberFormat(labels.lang === "id" ? "id-ID" : "en-US");
  if (!webgl()) { host.appendChild(el("p", "notice", labels.map_no_webgl)); return; }
  var fallback = host.querySelector("svg");
  if (fallback) fallback.remove();
  var hover = host.querySelector(".map-hover") || host.appendChild(el("div", "map-hover"));
  hover.hidden = true;

  // The style with its source's attribution in the page's language (the API's style.json says it in English).
  var style = await getJson("/tiles/style.json?maxzoom=" + labels.site_maxzoom);
  if (labels.map_attribution) style.sources.wilayah.attribution = labels.map_attribution;
  var map = new maplibregl.Map({
    container: host,
    style: style,
    // The site's token on every tile (/tiles/{z}/{x}/{y}.mvt?v=...: a test of the path, not a regular
    // expression: this script is a template literal, where a backslash would be lost); the source capped at the zoom it grants.
    transformRequest: function (url) { return url.indexOf("/tiles/") >= 0 && url.indexOf(".mvt") > 0 ? { url: url, headers: { "x-map-token": token } } : { url: url }; },
    bounds: INDONESIA,
    fitBoundsOptions: fitFor(host),
    minZoom: 1,
    // Room around the country for a tall phone screen: a view the bounds cannot hold is zoomed in,
    // which cut off Aceh and Papua.
    maxBounds: [[55, -45], [180, 40]],
    attributionControl: { compact: true },
    dragRotate: false,
    pitchWithRotate: false,
  });
  // Until the visitor moves the map, a change of the element's size (the page's layout settling, a
  // phone turned) fits the country again: the first view never cuts off Aceh or Papua.
  var moved = false;
  map.on("dragstart", function () { moved = true; });
  map.on("zoomstart", function (e) { if (e.originalEvent) moved = true; });
  if (window.ResizeObserver) new ResizeObserver(function () { if (!moved) { map.resize(); map.fitBounds(INDONESIA, Object.assign({ animate: false }, fitFor(host))); } }).observe(host);
  // Tiles not uploaded yet (a first local start builds them in the background): said once, in words.
  var told = false;
  map.on("error", function (e) {
    if (told || !e.error || e.error.status !== 503) return;
    told = true;
    host.parentNode.insertBefore(el("p", "notice warn", labels.map_tiles_missing), host);
  });
  // For scripts on the page and the browser tests: the map instance.
  window.wilayahMap = map;
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }));

  /** The level drawn at a zoom: the deepest whose first zoom is reached. */
  // The levels the map's tiles hold: the site's own map (zooms up to site_maxzoom) has no village layer.
  function drawn(x) { return minzoom[x] <= labels.site_maxzoom; }
  function levelAt(z) { var l = "provinsi"; LEVELS.forEach(function (x) { if (z >= minzoom[x] && drawn(x)) l = x; }); return l; }
  var hovered = null;
  var selected = null;

  map.on("load", function () {
    LEVELS.forEach(function (level, i) {
      var next = LEVELS[i + 1];
      var layer = { id: level + "-hit", type: "fill", source: "wilayah", "source-layer": level, minzoom: minzoom[level],
        paint: { "fill-color": "#f2b705", "fill-opacity": ["case", ["boolean", ["feature-state", "hover"], false], 0.3, 0] } };
      if (next && drawn(next)) layer.maxzoom = minzoom[next];
      map.addLayer(layer, "kelurahan-line");
      var edge = { id: level + "-selected", type: "line", source: "wilayah", "source-layer": level, minzoom: minzoom[level],
        filter: ["==", ["get", "code"], ""], paint: { "line-color": "#d62828", "line-width": 3 } };
      map.addLayer(edge);
      map.on("mousemove", level + "-hit", function (e) {
        var f = e.features && e.features[0];
        if (!f) return;
        if (hovered && (hovered.id !== f.id || hovered.level !== level)) map.setFeatureState({ source: "wilayah", sourceLayer: hovered.level, id: hovered.id }, { hover: false });
        hovered = { id: f.id, level: level };
        map.setFeatureState({ source: "wilayah", sourceLayer: level, id: f.id }, { hover: true });
        hover.textContent = f.properties.name + " (" + f.properties.code + ")";
        hover.hidden = false;
        map.getCanvas().style.cursor = "pointer";
      });
      map.on("mouseleave", level + "-hit", function () {
        if (hovered) map.setFeatureState({ source: "wilayah", sourceLayer: hovered.level, id: hovered.id }, { hover: false });
        hovered = null;
        hover.hidden = true;
        map.getCanvas().style.cursor = "";
      });
    });
    host.setAttribute("data-ready", "1");
  });

  function select(code, level) {
    LEVELS.forEach(function (l) { if (map.getLayer(l + "-selected")) map.setFilter(l + "-selected", ["==", ["get", "code"], l === level ? code : ""]); });
  }

  if (kind === "demo") {
    // The small map shows the country whole: 38 province names do not fit it (hover names a province).
    map.on("load", function () { if (map.getLayer("provinsi-label")) map.setLayoutProperty("provinsi-label", "visibility", "none"); });
    map.on("click", function (e) {
      var lat = document.getElementById("demo-lat");
      var lng = document.getElementById("demo-lng");
      var form = document.querySelector("form[data-demo=reverse]");
      if (!lat || !lng || !form) return;
      lat.value = e.lngLat.lat.toFixed(5);
      lng.value = e.lngLat.lng.toFixed(5);
      form.requestSubmit();
    });
    return;
  }

  var card = document.getElementById("map-card");
  function row(dl, term, value) { if (value == null || value === "") return; dl.appendChild(el("dt", null, term)); var dd = el("dd"); if (typeof value === "string") dd.textContent = value; else dd.appendChild(value); dl.appendChild(dd); }
  function renderCard(region, point) {
    card.textContent = "";
    if (region) {
      var d = region.data;
      card.appendChild(el("h2", null, d.name));
      card.appendChild(el("span", "badge", d.level));
      var dl = el("dl");
      row(dl, labels.map_card_code, d.id);
      if (d.parents.length) row(dl, labels.map_card_parents, d.parents.slice().reverse().map(function (p) { return p.name + " (" + p.id + ")"; }).join(", "));
      if (d.population) row(dl, labels.map_card_population, fmt.format(d.population.total));
      if (d.area_km2 != null) row(dl, labels.map_card_area, fmt.format(d.area_km2) + " km²");
      if (d.density_per_km2 != null) row(dl, labels.map_card_density, fmt.format(d.density_per_km2) + " /km²");
      if (d.postal_codes && d.postal_codes.length) row(dl, labels.map_card_postal, d.postal_codes.join(", "));
      var api = el("a", null, "/api/v1/wilayah/" + d.id); api.href = "/api/v1/wilayah/" + d.id;
      row(dl, labels.map_card_api, api);
      card.appendChild(dl);
      var report = el("a", "report-link", labels.report_problem); report.href = "/portal/report?region=" + encodeURIComponent(d.id);
      card.appendChild(report);
    }
    if (point !== undefined) {
      card.appendChild(el("h3", null, labels.map_card_point));
      if (!point) { card.appendChild(el("p", "muted", labels.map_card_none)); return; }
      var list = el("dl");
      ["kelurahan", "kecamatan", "kabupaten", "provinsi"].forEach(function (l) { var r = point.data[l]; if (r) row(list, l, r.name + " (" + r.id + ")" + (r.postal_code ? " " + r.postal_code : "")); });
      card.appendChild(list);
    }
  }
  function showRegion(code, fly) {
    return getJson("/demo/region/" + encodeURIComponent(code)).then(function (region) {
      var d = region.data;
      select(d.id, d.level);
      // The whole region in view (its bounding box), else its point at its level's zoom.
      if (fly && d.bbox) map.fitBounds([[d.bbox[0], d.bbox[1]], [d.bbox[2], d.bbox[3]]], { padding: fitFor(host).padding * 2, maxZoom: 15, essential: true });
      else if (fly && d.lat != null && d.lng != null) map.flyTo({ center: [d.lng, d.lat], zoom: FLY_ZOOM[d.level], essential: true });
      renderCard(region);
      return region;
    });
  }
  map.on("click", function (e) {
    var level = levelAt(map.getZoom());
    var hits = map.queryRenderedFeatures(e.point, { layers: [level + "-hit"] });
    var code = hits.length ? hits[0].properties.code : null;
    var lookups = [code ? getJson("/demo/region/" + encodeURIComponent(code)).catch(function () { return null; }) : Promise.resolve(null),
      getJson("/demo/reverse?lat=" + e.lngLat.lat.toFixed(6) + "&lng=" + e.lngLat.lng.toFixed(6)).catch(function () { return null; })];
    Promise.all(lookups).then(function (r) {
      if (r[0]) select(r[0].data.id, r[0].data.level); else select("", level);
      renderCard(r[0], r[1]);
    });
  });

  var results = document.getElementById("map-results");
  document.getElementById("map-search").addEventListener("submit", function (e) {
    e.preventDefault();
    var q = document.getElementById("map-q").value;
    results.textContent = "";
    getJson("/demo/search?q=" + encodeURIComponent(q)).then(function (body) {
      if (!body.data.length) { results.appendChild(el("li", "muted", labels.demo_none)); return; }
      body.data.forEach(function (r) {
        var li = el("li"); var b = el("button", null, r.name); b.type = "button";
        b.addEventListener("click", function () { showRegion(r.id, true); });
        li.appendChild(b); li.appendChild(document.createTextNode(" ")); li.appendChild(el("span", "badge", r.level));
        if (r.parent) li.appendChild(el("span", "muted", " " + r.parent));
        results.appendChild(li);
      });
      return showRegion(body.data[0].id, true);
    }).catch(function (err) { results.appendChild(el("li", "notice err", err.message)); });
  });

  var density = document.getElementById("map-density");
  var legend = document.getElementById("map-legend");
  density.addEventListener("change", function () {
    var on = density.checked;
    map.setLayoutProperty("kabupaten-density", "visibility", on ? "visible" : "none");
    legend.hidden = !on;
    if (on && map.getZoom() < minzoom.kabupaten) map.easeTo({ zoom: minzoom.kabupaten + 0.5 });
  });
}
`;
