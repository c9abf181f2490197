import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../lib.ts";

/** A copy of the seed's small files (the sources linked), so a run that wrongly wrote would show. */
const dir = mkdtempSync(join(tmpdir(), "edition-add-test-"));
const seed = join(dir, "seed");
cpSync(join(root, "seed"), seed, { recursive: true, filter: (src) => !src.startsWith(join(root, "seed", "sources")) && !src.endsWith("wilayah.sql") });
symlinkSync(join(root, "seed", "sources"), join(seed, "sources"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const add = (file: string, ...args: string[]) =>
  spawnSync(
    process.execPath,
    [
      join(root, "scripts", "edition", "add.ts"),
      "--id",
      "2026",
      "--decree",
      "Kepmendagri test",
      "--date",
      "2026-03-01",
      "--file",
      file,
      "--seed",
      seed,
      ...args,
    ],
    { encoding: "utf8" },
  );

describe("npm run edition:add (the command)", () => {
  it("lists every problem with its file and line, writes nothing and exits 1", () => {
    const file = join(dir, "bad.csv");
    writeFileSync(file, "code,name\n32,JAWA BARAT\n3273,KAB. BANDUNG\n32.73.09,\n99.01,KAB. X\n");
    const before = readFileSync(join(seed, "editions.json"), "utf8");
    const r = add(file, "--write");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bad.csv:3: 32.73 "KAB. BANDUNG": the prefix says kabupaten, the code says kota');
    expect(r.stderr).toContain("bad.csv:4: empty name for 32.73.09");
    expect(r.stderr).toContain("bad.csv:5: 99.01: its parent 99 is not in the file");
    expect(r.stderr).toContain("nothing written");
    expect(readFileSync(join(seed, "editions.json"), "utf8")).toBe(before);
    expect(existsSync(join(seed, "editions"))).toBe(false);
  });

  it("refuses a list that drops more than 2% of a level unless --allow-large-change", () => {
    const file = join(dir, "small.csv");
    writeFileSync(file, "code,name\n32,JAWA BARAT\n3273,KOTA BANDUNG\n");
    const r = add(file);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the list drops 37 of today's 38 provinsi codes \(over 2%\); pass --allow-large-change/);
    expect(readdirSync(seed)).not.toContain("editions");
  });

  it("says how to call it", () => {
    const r = spawnSync(process.execPath, [join(root, "scripts", "edition", "add.ts"), "--id", "2026"], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("--decree is required");
    expect(r.stderr).toContain("usage: npm run edition:add");
  });
});
