/**
 * What the browser suite runs against: the Worker under `wrangler dev` on loopback with a local
 * state of its own (.wrangler/browser: D1 with migrations and the seed, KV, Durable Objects), and a
 * Tripay stand-in (a Node HTTP server answering transaction/create like the sandbox). Nothing here
 * reaches the internet.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, chromium, type Page } from "playwright-core";
import { d1, root, sqlString, toolEnv, wranglerBin } from "../../scripts/lib.ts";
import { freePorts, suitePorts } from "../../scripts/ports.ts";
import { transactionSignature } from "../../src/billing/signature.ts";
import buildTilesSubset, { TILES_SUBSET_DIR } from "../setup/tiles-subset.ts";

/**
 * The suite's prepared state (migrations, seed, tiles, a development key), made once before the
 * files run (test/browser/setup.ts) and never served: each file copies it into a state of its own
 * (STATE), so the files run beside each other and beside the other suites, each with its own Worker.
 */
export const PREPARED = join(root, ".wrangler", "browser");
/** This file's state: a copy of PREPARED (about 1 s), removed when the file ends. */
export const STATE = join(root, ".wrangler", "browser-runs", randomUUID());
/** Where the suites save their screenshots (git-ignored), and the two widths every page is seen at. */
export const SHOTS = join(root, "test", "browser", "screenshots");
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
/**
 * The file's ports, found free when it starts (so two checkouts run the suite at once), or
 * BROWSER_PORT and the four after it: the Worker, the Tripay stand-in, a webhook receiver and two
 * pages. The files run beside each other (vitest's lanes): with BROWSER_PORT set, each lane after
 * the first takes the five ports after the one before's (VITEST_POOL_ID is the lane, from 1).
 */
const lane = Math.max(0, Number(process.env.VITEST_POOL_ID ?? 1) - 1);
export const [WORKER_PORT, TRIPAY_PORT, HOOKS_PORT, SHOP_PORT, OTHER_PORT] = await suitePorts("BROWSER_PORT", 5, lane * 5);
export const ORIGIN = `http://127.0.0.1:${WORKER_PORT}`;
export const TRIPAY = { TRIPAY_API_KEY: "DEV-browser-test-key", TRIPAY_PRIVATE_KEY: "browser-test-private-key", TRIPAY_MERCHANT_CODE: "T0042" };

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

/** Fails loudly when the browser is missing: the suite never passes by skipping. */
export function assertBrowser() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser suite needs Chromium at ${CHROMIUM} (set CHROMIUM_PATH to use another). On Debian/Ubuntu: ` +
        "apt-get update && apt-get install -y chromium-headless-shell (bash .ci/run does this when it is missing).",
    );
  }
}

/**
 * Migrations, seed (when changed) and a .dev.vars with a JWT secret (scripts/dev.ts --no-serve, on
 * this state). The vector tiles are the Worker tests' small archive (Jawa Barat and Sumatera Barat,
 * Kota Bandung's villages; test/setup/tiles-subset.ts), not the whole build's minutes; no bulk
 * exports (no page here downloads one).
 */
export function prepareState(state = PREPARED) {
  buildTilesSubset();
  const r = spawnSync(process.execPath, [join(root, "scripts", "dev.ts"), "--no-serve", "--tiles"], {
    cwd: root,
    env: { ...toolEnv, WRANGLER_PERSIST_TO: state, WRANGLER_HIDE_BANNER: "true", TILES_DIR: TILES_SUBSET_DIR },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error("preparing the browser suite's local state failed (scripts/dev.ts --no-serve)");
}

/** This file's state, a fresh copy of the prepared one. */
export function copyState() {
  rmSync(STATE, { recursive: true, force: true });
  cpSync(PREPARED, STATE, { recursive: true });
}

export function makeAdmin(email: string) {
  d1(`UPDATE users SET is_admin = 1 WHERE email = ${sqlString(email)}`, { persistTo: STATE });
}

/** A plan as an admin would set it (before the account's first call: the account object reads the plan then). */
export function setPlanOf(email: string, plan: string) {
  d1(`UPDATE users SET plan = ${sqlString(plan)} WHERE email = ${sqlString(email)}`, { persistTo: STATE });
}

export type Transaction = { merchant_ref: string; reference: string; amount: number };

/** Tripay's transaction-create as the sandbox answers it, checking the bearer key and the request signature. */
export async function startTripay(): Promise<{ server: Server; transactions: Map<string, Transaction> }> {
  const transactions = new Map<string, Transaction>();
  let seq = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (req.method !== "POST" || !req.url?.endsWith("/transaction/create")) return send(404, { success: false, message: "Not found" });
      if (req.headers.authorization !== `Bearer ${TRIPAY.TRIPAY_API_KEY}`) return send(401, { success: false, message: "Invalid API key" });
      const tx = JSON.parse(body);
      const sig = await transactionSignature(TRIPAY.TRIPAY_PRIVATE_KEY, TRIPAY.TRIPAY_MERCHANT_CODE, tx.merchant_ref, tx.amount);
      if (tx.signature !== sig) return send(400, { success: false, message: "Invalid signature" });
      const reference = `DEV-T0042${String(++seq).padStart(5, "0")}${Date.now() % 100000}`;
      transactions.set(tx.merchant_ref, { merchant_ref: tx.merchant_ref, reference, amount: tx.amount });
      send(200, {
        success: true,
        message: "",
        data: {
          reference,
          merchant_ref: tx.merchant_ref,
          payment_method: "QRIS",
          amount: tx.amount,
          status: "UNPAID",
          expired_time: tx.expired_time,
          // A QRIS payload (EMVCo) like the ones real banking apps scan.
          qr_string: `00020101021226650013ID.CO.TRIPAY.WWW0118936009140000000042021000000000420303UMI51440014ID.CO.QRIS.WWW0215ID10200000000420303UMI5204481653033605405${tx.amount}5802ID5911WILAYAH API6007JAKARTA6105101106304ABCD`,
          qr_url: null,
        },
      });
    });
  });
  await new Promise<void>((r) => server.listen(TRIPAY_PORT, "127.0.0.1", r));
  return { server, transactions };
}

/** `wrangler dev` on loopback with the suite's state and vars; `output` collects its stdout (the console mailer). */
export async function startWorker(
  output: { text: string },
  at: { port: number; state: string; args?: string[]; vars?: Record<string, string> } = { port: WORKER_PORT, state: STATE },
): Promise<ChildProcess> {
  const origin = `http://127.0.0.1:${at.port}`;
  // Something already answering on the port (a Worker left from an interrupted run) would be tested instead.
  const busy = await fetch(`${origin}/health`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${at.port} is already in use: stop what listens there (a wrangler dev left from an earlier run?) and run again`);
  // `at.vars`: in place of the Tripay stand-in's (the README's walk runs as npm run dev does, with the payment simulator).
  const vars = at.vars ?? {
    ...TRIPAY,
    TRIPAY_BASE_URL: `http://127.0.0.1:${TRIPAY_PORT}`,
    TURNSTILE_SITE_KEY: "",
    MCP_HOSTNAMES: "",
    ENVIRONMENT: "development",
    BREACHED_PASSWORDS_URL: "",
  };
  // An inspector port of its own: wrangler's default (9229 when free) is taken by whichever of two
  // Workers starting at once binds it first, and the other fails ("Address already in use").
  const [inspector] = await freePorts(1);
  const args = [
    "dev",
    "--port",
    String(at.port),
    "--inspector-port",
    String(inspector),
    "--ip",
    "127.0.0.1",
    "--persist-to",
    at.state,
    ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ...(at.args ?? []),
  ];
  const child = spawn(wranglerBin, args, {
    cwd: root,
    // No request to the internet: no Request.cf download, no banner (its update check).
    env: {
      ...toolEnv,
      X_LOCAL_OBSERVABILITY: "false",
      X_LOCAL_EXPLORER: "false",
      BROWSER: "none",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_HIDE_BANNER: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (chunk: Buffer) => (output.text += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output.text += chunk.toString()));
  for (let i = 0; i < 240; i++) {
    await new Promise((r) => setTimeout(r, 500));
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${origin}/health`)).ok) return child;
    } catch {
      // not up yet
    }
  }
  stopWorker(child);
  throw new Error(`wrangler dev did not come up within 120 s:\n${output.text.slice(-3000)}`);
}

export function stopWorker(child: ChildProcess | undefined) {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/** The last verification link the console mailer printed for this address. */
export async function verificationLink(output: { text: string }, email: string, timeoutMs = 20_000): Promise<string> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const blocks = output.text.split("[console mailer]").filter((b) => b.includes(`to ${email}:`));
    const m = blocks.length ? /(http:\/\/\S+\/auth\/verify-email\?token=[A-Za-z0-9._-]+)/.exec(blocks.at(-1)!) : null;
    if (m) return m[1];
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no verification link for ${email} in wrangler's output`);
}

/**
 * Accessibility: axe-core's checks (WCAG 2.x A and AA, colour contrast included) on the page as it
 * stands; the serious and critical violations, one line each. (axe needs a page from
 * browser.newContext(), which the suites use.)
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  // Legacy mode: axe runs in the page alone. The default mode opens a blank page after each run to
  // merge the results of the page's frames (ours have none), about half of each run's time: 0.9 to
  // 2.2 s per page against 0.4 to 0.6 s, with the same violations, over four pages measured here.
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${page.url()}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

/**
 * What sticks out of the screen at the page's width (a phone's 390 px): the document wider than the
 * viewport, an element reaching past either edge (a long hash in a card), or an SVG's text cut by
 * its own box (a chart's axis label "4.017" showing as ".017"). Inside a box that scrolls or clips
 * sideways (a code block, a wide table, the map) nothing counts: it is meant to scroll there. One
 * line per problem; none when the page fits.
 */
export async function overflowAt(page: Page): Promise<string[]> {
  // Run in the page (the suites' TypeScript has no DOM types: the check is a script, as the others' are).
  return page.evaluate<string[]>(`(() => {
    const width = window.innerWidth;
    const found = [];
    const doc = document.documentElement.scrollWidth;
    if (doc > width) found.push(location.pathname + ": the page is " + doc + " px wide at " + width + " px");
    const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.classList.length ? "." + [...el.classList].join(".") : "");
    const scrolls = (el) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const x = getComputedStyle(a).overflowX;
        if (x === "auto" || x === "scroll" || x === "hidden" || x === "clip") return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
      const svg = el instanceof SVGElement && el.tagName !== "svg" ? el.ownerSVGElement : null;
      if (svg) {
        const box = svg.getBoundingClientRect();
        if (el.tagName === "text" && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
          found.push(location.pathname + ': "' + el.textContent + '" cut by its chart (' + Math.round(r.left - box.left) + " px)");
        continue;
      }
      // The skip link waits left of the screen until it has the focus: meant to be out of sight.
      if (el.classList.contains("skip")) continue;
      if ((r.right > width + 0.5 || r.left < -0.5) && !scrolls(el))
        found.push(location.pathname + ": " + name(el) + " spans " + Math.round(r.left) + " to " + Math.round(r.right) + " px");
    }
    return found.slice(0, 10);
  })()`);
}

/** Signs up in the portal and opens the emailed verification link (from the Worker's `output`). */
export async function signUpVerified(page: Page, who: { name: string; email: string; password: string }, output: { text: string }) {
  await page.goto(`${ORIGIN}/portal/signup`);
  await page.fill("#name", who.name);
  await page.fill("#email", who.email);
  await page.fill("#password", who.password);
  await Promise.all([page.waitForURL(/\/portal\/keys/), page.click("form[action='/portal/signup'] button[type=submit]")]);
  await page.goto(await verificationLink(output, who.email));
}

/** The last password-reset link the console mailer printed for this address. */
export async function resetLink(output: { text: string }, email: string, timeoutMs = 20_000): Promise<string> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const blocks = output.text.split("[console mailer]").filter((b) => b.includes(`to ${email}:`));
    const m = blocks.length ? /(http:\/\/\S+\/portal\/reset\?token=[A-Za-z0-9._%-]+)/.exec(blocks.at(-1)!) : null;
    if (m) return m[1];
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no reset link for ${email} in wrangler's output`);
}

/** The Worker's vars as `npm run dev` sets them: development, no payment provider, so the local payment simulator pays invoices. */
export const DEV_VARS = { ENVIRONMENT: "development", PAYMENT_SIMULATOR: "on", BREACHED_PASSWORDS_URL: "", MCP_HOSTNAMES: "", TURNSTILE_SITE_KEY: "" };

/** A suite's running parts: the local Worker and Chromium (and, for the portal, the Tripay stand-in). */
export type Suite = { worker: ChildProcess; browser: Browser };

/** A suite's start: the browser checked, the screenshots' folder made, the file's state copied, then the Worker and Chromium. */
export async function startSuite(output: { text: string }, shots: string, vars?: Record<string, string>): Promise<Suite> {
  assertBrowser();
  mkdirSync(shots, { recursive: true });
  copyState();
  const worker = await startWorker(output, { port: WORKER_PORT, state: STATE, vars });
  return { worker, browser: await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] }) };
}

export async function stopSuite(suite: Partial<Suite>): Promise<void> {
  await suite.browser?.close();
  await stopWorkerAndWait(suite.worker);
  rmSync(STATE, { recursive: true, force: true });
}

/** stopWorker, then its exit awaited (at most 10 s), so the state it holds can go. */
export async function stopWorkerAndWait(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  stopWorker(child);
  await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
}
