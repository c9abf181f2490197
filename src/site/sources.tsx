/** @jsxImportSource hono/jsx */
/**
 * The page /docs/guide/sources: every source of the data with its version, licence and
 * attribution, read from the same table `?include=sources` cites (src/wilayah/sources), so the page
 * and the API cannot disagree. English, like the guides.
 */
import type { listSources } from "../wilayah/sources/service";

type Listed = Awaited<ReturnType<typeof listSources>>[number];

const FAMILY_WORDS: Record<string, string> = {
  code_name: "codes and names",
  coordinates: "coordinates",
  postal_code: "postal codes",
  boundary: "boundaries",
  population_area: "population and area",
  islands: "islands",
  bps_codes: "BPS codes",
};

function Source(props: { s: Listed }) {
  const { s } = props;
  return (
    <section id={s.id} class="source">
      <h3>{s.url ? <a href={s.url}>{s.name}</a> : s.name}</h3>
      <dl>
        <dt>Used for</dt>
        <dd>{s.families.map((f) => FAMILY_WORDS[f] ?? f).join(", ")}</dd>
        <dt>{s.kind === "regulation" ? "Regulation" : "Version"}</dt>
        <dd>{s.version ?? "none stated"}</dd>
        <dt>Date</dt>
        <dd>{s.date ?? "not known"}</dd>
        <dt>Licence</dt>
        <dd>
          {s.licence ? (
            s.licence_url ? (
              <a href={s.licence_url}>{s.licence}</a>
            ) : (
              s.licence
            )
          ) : s.kind === "regulation" ? (
            "an official regulation; no licence stated"
          ) : (
            "none stated"
          )}
        </dd>
        <dt>Attribution</dt>
        <dd class="attribution">{s.attribution}</dd>
        {s.files.length ? (
          <>
            <dt>In the repository</dt>
            <dd>{s.files.join(", ")}</dd>
          </>
        ) : null}
        {s.processing ? (
          <>
            <dt>Processing</dt>
            <dd>{s.processing}</dd>
          </>
        ) : null}
        {s.note ? (
          <>
            <dt>Note</dt>
            <dd>{s.note}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** The page's content: datasets, then the editions' regulations. */
export function SourcesContent(props: { sources: Listed[] }) {
  const datasets = props.sources.filter((s) => s.kind === "dataset");
  const regulations = props.sources.filter((s) => s.kind === "regulation");
  return (
    <article lang="en">
      <h1>Sources and licences</h1>
      <p>
        Every fact the API serves comes from one of the sources below. Ask any region for its own with <code>GET /api/v1/wilayah/{"{id}"}?include=sources</code>
        : for each family of its fields the dataset, its version, licence and attribution, the regulation that set its code and name, and any correction made by
        hand with its basis (<a href="/docs/guide/regional-data#provenance-include-sources">Provenance</a>). Show the attribution of a source wherever you show
        or ship its data.
      </p>
      <table tabindex={0}>
        <thead>
          <tr>
            <th>Source</th>
            <th>Version</th>
            <th>Licence</th>
          </tr>
        </thead>
        <tbody>
          {datasets.map((s) => (
            <tr>
              <td>
                <a href={`#${s.id}`}>{s.name}</a>
              </td>
              <td>{s.version ?? "none stated"}</td>
              <td>{s.licence ?? "none stated"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Datasets</h2>
      {datasets.map((s) => (
        <Source s={s} />
      ))}
      <h2>Regulations: the editions of the code list</h2>
      {regulations.map((s) => (
        <Source s={s} />
      ))}
    </article>
  );
}
