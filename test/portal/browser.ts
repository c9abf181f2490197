/** A browser in miniature for the portal's tests: cookies, Origin on POST, the CSRF token of the last page. */
import { expect, vi } from "vitest";
import { BASE, call, uniqueEmail, verifyLinkFrom } from "../helpers";

export class Browser {
  cookies = new Map<string, string>();
  csrf = "";
  last = "";

  async get(path: string, headers: Record<string, string> = {}) {
    const res = await call(path, { redirect: "manual", headers: { cookie: this.cookieHeader(), ...headers } });
    return this.keep(res);
  }

  async post(path: string, fields: Record<string, string>, opts: { origin?: string | null; csrf?: string } = {}) {
    const body = new URLSearchParams({ csrf: opts.csrf ?? this.csrf, ...fields });
    const headers: Record<string, string> = { cookie: this.cookieHeader(), "content-type": "application/x-www-form-urlencoded" };
    if (opts.origin !== null) headers.origin = opts.origin ?? BASE;
    return this.keep(await call(path, { method: "POST", body: body.toString(), redirect: "manual", headers }));
  }

  /** A multipart form (a file input): fields and files, as a browser sends `enctype="multipart/form-data"`. */
  async postMultipart(path: string, fields: Record<string, string>, files: Record<string, { name: string; type: string; content: string }> = {}) {
    const body = new FormData();
    body.set("csrf", this.csrf);
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    for (const [k, f] of Object.entries(files)) body.set(k, new File([f.content], f.name, { type: f.type }));
    return this.keep(await call(path, { method: "POST", body, redirect: "manual", headers: { cookie: this.cookieHeader(), origin: BASE } }));
  }

  /** Follows same-origin redirects like a browser. */
  async follow(res: Response): Promise<Response> {
    let r = res;
    for (let i = 0; i < 5 && r.status >= 300 && r.status < 400; i++)
      r = await this.get(new URL(r.headers.get("location")!, BASE).pathname + new URL(r.headers.get("location")!, BASE).search);
    return r;
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private async keep(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const [k, v] = pair.split("=");
      if (attrs.some((a) => /max-age=0/i.test(a.trim())) || v === "") this.cookies.delete(k.trim());
      else this.cookies.set(k.trim(), v);
    }
    const text = await res.clone().text();
    this.last = text;
    const m = /name="csrf" value="([^"]+)"/.exec(text);
    if (m) this.csrf = m[1];
    return res;
  }
}

export async function signedUp(b = new Browser()) {
  await b.get("/portal/signup");
  const email = uniqueEmail();
  const log = vi.spyOn(console, "log");
  const res = await b.post("/portal/signup", { name: "Ani", email, password: "correct horse" });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/portal/keys");
  const link = verifyLinkFrom(log);
  log.mockRestore();
  return { b, email, link };
}
