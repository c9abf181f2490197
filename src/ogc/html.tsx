/** @jsxImportSource hono/jsx */
/**
 * The OGC API's HTML encoding (conformance class "html"): the same documents for a person in a
 * browser, plain pages in the portal's stylesheet, with the items drawn as an SVG map (no script,
 * so the pages' strict CSP holds). Links carry f=html; none carries the key: a person who opened a
 * page with ?api_key= in its address adds it again to the next one.
 */
import type { Child } from "hono/jsx";
import type { RegionFeature } from "../wilayah/geo/service";

type Link = { href: string; rel: string; type: string; title: string };

function Page(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <link rel="stylesheet" href="/portal/assets/app.css" />
      </head>
      <body>
        <main class="container">
          <p>
            <a href="/ogc?f=html">OGC API – Features</a> · <a href="/docs/guide/qgis-and-gdal">QGIS and GDAL guide</a>
          </p>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

function Links(props: { links: Link[] }) {
  return (
    <ul>
      {props.links.map((l) => (
        <li>
          <a href={l.href}>{l.title}</a>{" "}
          <small>
            ({l.rel}, {l.type})
          </small>
        </li>
      ))}
    </ul>
  );
}

export const landingHtml = (doc: { title: string; description: string; links: Link[] }) => (
  <Page title={doc.title}>
    <p>{doc.description}</p>
    <Links links={doc.links} />
  </Page>
);

export const conformanceHtml = (doc: { conformsTo: string[] }) => (
  <Page title="Conformance classes">
    <ul>
      {doc.conformsTo.map((c) => (
        <li>
          <code>{c}</code>
        </li>
      ))}
    </ul>
  </Page>
);

type CollectionDoc = { id: string; title: string; description: string; links: Link[]; attribution?: string; data_version?: string };

export const collectionsHtml = (doc: { collections: CollectionDoc[] }) => (
  <Page title="Collections">
    {doc.collections.map((c) => (
      <section>
        <h2>
          <a href={`/ogc/collections/${c.id}?f=html`}>{c.title}</a>
        </h2>
        <p>{c.description}</p>
        <p>
          <a href={`/ogc/collections/${c.id}/items?f=html`}>Items</a>
        </p>
      </section>
    ))}
  </Page>
);

export const collectionHtml = (c: CollectionDoc) => (
  <Page title={c.title}>
    <p>{c.description}</p>
    {c.data_version ? <p>Data version: {c.data_version}</p> : null}
    {c.attribution ? <p>Sources: {c.attribution}</p> : null}
    <Links links={c.links} />
  </Page>
);

/** The page's features drawn in SVG (equirectangular, north up), each outline titled with its code and name. */
function FeatureMap(props: { features: RegionFeature[] }) {
  const boxes = props.features.map((f) => f.bbox).filter((b): b is [number, number, number, number] => !!b);
  if (!boxes.length) return null;
  const [w, s, e, n] = boxes.reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])]);
  const width = 800;
  const kx = Math.cos((((s + n) / 2) * Math.PI) / 180);
  const scale = width / Math.max((e - w) * kx, 1e-9);
  const height = Math.max(100, Math.min(800, Math.round((n - s) * scale)));
  const path = (f: RegionFeature) =>
    (f.geometry?.coordinates ?? [])
      .flatMap((poly) => poly.map((ring) => `M${ring.map(([x, y]) => `${(((x - w) * kx * scale) | 0) + 0.5},${(((n - y) * scale) | 0) + 0.5}`).join("L")}Z`))
      .join("");
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label="The page's features on a map">
      {props.features.map((f) => (
        <path d={path(f)} fill="#dbe8f3" stroke="#3b4a5a" stroke-width="0.8" fill-rule="evenodd">
          <title>{`${f.id} ${f.properties.name}`}</title>
        </path>
      ))}
    </svg>
  );
}

export const itemsHtml = (level: string, page: { numberMatched: number; numberReturned: number; next: string | null; features: RegionFeature[] }) => (
  <Page title={`${level}: items`}>
    <p>
      {page.numberReturned} of {page.numberMatched} matched. {page.next ? <a href={`${page.next}&f=html`}>Next page</a> : null}
    </p>
    <FeatureMap features={page.features} />
    <table>
      <thead>
        <tr>
          <th>id</th>
          <th>name</th>
          <th>parent</th>
        </tr>
      </thead>
      <tbody>
        {page.features.map((f) => (
          <tr>
            <td>
              <a href={`/ogc/collections/${level}/items/${f.id}?f=html`}>{f.id}</a>
            </td>
            <td>{String(f.properties.name)}</td>
            <td>{String(f.properties.kecamatan_id ?? f.properties.kabupaten_id ?? f.properties.provinsi_id ?? "")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </Page>
);

export const itemHtml = (level: string, f: RegionFeature) => (
  <Page title={`${f.properties.name} (${f.id})`}>
    <FeatureMap features={[f]} />
    <table>
      <tbody>
        {Object.entries(f.properties).map(([k, v]) => (
          <tr>
            <th>{k}</th>
            <td>{v === null ? "" : String(v)}</td>
          </tr>
        ))}
      </tbody>
    </table>
    <p>
      <a href={`/ogc/collections/${level}/items?f=html`}>All {level}</a>
    </p>
  </Page>
);

export const errorHtml = (status: number, code: string, description: string) => (
  <Page title={`${status} ${code}`}>
    <p>{description}</p>
  </Page>
);
