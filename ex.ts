import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { sqliteDb } from "./scripts/sqlite-d1.ts";
import { convert, listChanges, listEditions, regionHistory } from "./src/wilayah/history/service.ts";
import { nikRegion } from "./src/wilayah/nik/service.ts";
import { getRegion } from "./src/wilayah/regions/service.ts";

const db = new DatabaseSync(":memory:");
for (const f of readdirSync("migrations")
  .filter((f) => f.endsWith(".sql"))
  .sort())
  for (const s of readFileSync(`migrations/${f}`, "utf8").split("--> statement-breakpoint")) if (s.trim()) db.exec(s);
db.exec(
  readFileSync("seed/wilayah.sql", "utf8")
    .split("\n")
    .filter((l) => /^INSERT INTO (provinsi|kabupaten|kecamatan|kelurahan|wilayah_edition|wilayah_history|wilayah_successor|wilayah_change) /.test(l))
    .join("\n"),
);
const r = sqliteDb(db);
const out = (x: unknown) => console.log(JSON.stringify(x, null, 2));
const what = process.argv[2];
if (what === "editions") out(await listEditions(r));
if (what === "history") out(await regionHistory(r, process.argv[3]));
if (what === "changes") out(await listChanges(r, { from: "2022b", to: "2025", level: "kabupaten", page: 1, per_page: 3 }));
if (what === "convert") out(await convert(r, ["91.01", "9271", "91.01.01.2001", "32.73", "32.73.99"]));
if (what === "byid") out(await getRegion(r, process.argv[3]));
if (what === "nik") out(await nikRegion(r, process.argv[3]));
if (what === "counts") {
  for (const c of ["recoded", "renamed", "created", "retired", "merged", "split"]) {
    const x = await listChanges(r, { from: "2015", to: "2025", change: c as never, page: 1, per_page: 1 });
    console.log(c, x.meta.total);
  }
}
