/** Content negotiation shared by the routes that answer people and programs at one address. */

/** A browser's Accept: text/html named before any JSON type (a bare wildcard, as curl sends, is not). */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(",").map((t) => t.split(";")[0].trim().toLowerCase());
  const html = types.indexOf("text/html");
  const json = types.findIndex((t) => t === "application/json" || t.endsWith("+json"));
  return html >= 0 && (json < 0 || html < json);
}
