/**
 * The Python SDK's generated part, from the API document: `models.py` (a TypedDict per answer and
 * request body, from their JSON Schemas) and `_client.py` (`Client` and `AsyncClient`: one method
 * per operation, typed parameters and answers, docstrings from the document). It stands on the
 * hand-written `_base.py` (requests, auth, retries, ApiError, downloads).
 *
 * openapi-python-client was the intended generator; it comes from the Python registry, which this
 * project's machines and CI cannot reach, so this small generator takes its place (clients/python/README.md).
 *
 * Called by clients/generate.ts (`pythonSdk(document)` → file name → text); deterministic: the same
 * document gives the same bytes. Rules:
 * - names: a method per operationId in snake_case (`listKabupaten` → `list_kabupaten`); models are
 *   the operationId in PascalCase + `Response` / `Body`, nested objects add the property's name,
 *   array items `Item`.
 * - parameters: path parameters first (positional), then keyword-only query, header and body
 *   fields; optional ones default to None and are not sent. A query flag documented as the text
 *   0/1/true/false is a `bool`; a text parameter whose pattern reads a decimal number also takes a `float`.
 * - answers: the JSON answer typed as its model; a paged list (`data` + `meta` with page and
 *   total_pages) is a `Page[Item]`, which `paginate` walks; an answer that is a file
 *   (`content-disposition`) is streamed into `to` and returns `Download`; an answer without JSON
 *   (redirects, pages) is the `httpx.Response`.
 */

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
  pattern?: string;
  [keyword: string]: unknown;
};
type Param = { name: string; in: "path" | "query" | "header"; required?: boolean; description?: string; schema: Schema };
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> }>;
  security?: Record<string, string[]>[];
};
type Document = {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }> };
};

const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
const snake = (name: string) => {
  const s = words(name)
    .map((w) => w.toLowerCase())
    .join("_");
  return KEYWORDS.has(s) || /^\d/.test(s) ? `${s}_` : s;
};
const pascal = (name: string) =>
  words(name)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
const isIdentifier = (s: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !KEYWORDS.has(s);
const pyString = (s: string) => JSON.stringify(s);

/** Text for a docstring: no backslash or triple quote can end it early, lines wrapped at 100. */
function docLines(text: string, indent: string, width = 100, inDocstring = true): string[] {
  const safe = inDocstring ? text.replaceAll("\\", "\\\\").replaceAll('"""', '\\"\\"\\"') : text;
  const out: string[] = [];
  for (const paragraph of safe.split(/\n{2,}/)) {
    if (out.length) out.push("");
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && indent.length + line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) out.push(line);
  }
  return out.map((l) => (l ? indent + l : ""));
}

/** A docstring: the text between triple quotes, wrapped. */
function docString(text: string, indent: string): string[] {
  const lines = docLines(text, indent, 97);
  lines[0] = `${indent}"""${lines[0].trimStart()}`;
  lines[lines.length - 1] += '"""';
  return lines;
}

/** A JSON value as a Python literal (for Literal[...]). */
function literal(v: unknown): string {
  if (typeof v === "string") return pyString(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  if (v === null) return "None";
  return String(v);
}

/** `head(items)` on one line when it fits in 100 characters, else one item a line. */
function wrapped(indent: string, head: string, items: string[], tail: string): string[] {
  const one = `${indent}${head}${items.join(", ")}${tail}`;
  if (one.length <= 100) return [one];
  return [`${indent}${head}`, ...items.map((i) => `${indent}    ${i},`), `${indent}${tail.trimStart()}`];
}

/** A docstring entry: its first line at `indent`, the lines after it four spaces further in. */
function hanging(text: string, indent: string): string[] {
  const lines = docLines(text, indent);
  return [lines[0], ...docLines(lines.slice(1).join(" "), `${indent}    `)].filter((l) => l !== undefined);
}

const BOOL_TEXT = ["0", "1", "false", "true"];
const isBoolText = (s: Schema) => s.type === "string" && Array.isArray(s.enum) && [...s.enum].sort().join() === BOOL_TEXT.join();
const isDecimalText = (s: Schema) => {
  if (s.type !== "string" || typeof s.pattern !== "string") return false;
  const re = new RegExp(s.pattern);
  return re.test("1") && re.test("-6.5") && !re.test("a");
};

/** The models being emitted: TypedDicts in dependency order (a model after the ones it uses). */
class Models {
  readonly blocks: string[] = [];
  private readonly names = new Set<string>();
  pageMeta: string | null = null;
  private pageMetaSchema: string | null = null;

  private claim(name: string): string {
    let n = name;
    for (let i = 2; this.names.has(n); i++) n = `${name}${i}`;
    this.names.add(n);
    return n;
  }

  /** The Python type of a schema; objects with properties become TypedDicts named `name`. */
  type(schema: Schema | undefined, name: string): string {
    if (!schema || Object.keys(schema).filter((k) => k !== "description").length === 0) return "Any";
    if (schema.const !== undefined) return `Literal[${literal(schema.const)}]`;
    if (Array.isArray(schema.enum)) return `Literal[${schema.enum.map(literal).join(", ")}]`;
    const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
    if (union) return [...new Set(union.map((s, i) => this.type(s, union.length > 1 ? `${name}${i === 0 ? "" : i + 1}` : name)))].join(" | ");
    if (Array.isArray(schema.type)) return schema.type.map((t: string) => this.type({ ...schema, type: t }, name)).join(" | ");
    switch (schema.type) {
      case "string":
        return "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "null":
        return "None";
      case "array":
        return `list[${this.type(schema.items, `${name}Item`)}]`;
      case "object":
        if (schema.properties && Object.keys(schema.properties).length) return this.typedDict(schema, name);
        return typeof schema.additionalProperties === "object" ? `dict[str, ${this.type(schema.additionalProperties, `${name}Value`)}]` : "dict[str, Any]";
      default:
        return "Any";
    }
  }

  /** A paged list's item model, when `schema` is one: `{data: [...], meta: {page, total_pages, ...}}`. */
  private pagedItem(schema: Schema, name: string): string | null {
    const props = schema.properties ?? {};
    const meta = props.meta;
    if (props.data?.type !== "array" || meta?.type !== "object" || !meta.properties?.page || !meta.properties?.total_pages) return null;
    if (Object.keys(props).length !== 2) return null;
    const text = JSON.stringify(meta);
    if (this.pageMetaSchema === null) {
      this.pageMeta = this.typedDict(meta, "PageMeta");
      this.pageMetaSchema = text;
    } else if (this.pageMetaSchema !== text) return null;
    return this.type(props.data.items, `${name}Item`);
  }

  private typedDict(schema: Schema, wanted: string): string {
    const item = wanted !== "PageMeta" ? this.pagedItem(schema, wanted) : null;
    const name = this.claim(wanted);
    if (item) {
      this.blocks.push([`class ${name}(Page[${item}]):`, ...(schema.description ? docString(schema.description, "    ") : ["    pass"])].join("\n"));
      return name;
    }
    const required = new Set<string>(schema.required ?? []);
    const fields = Object.entries(schema.properties as Record<string, Schema>).map(([prop, s]) => {
      const t = this.type(s, `${name}${pascal(prop)}`);
      return { prop, type: required.has(prop) ? t : `NotRequired[${t}]`, about: s.description as string | undefined };
    });
    if (fields.every((f) => isIdentifier(f.prop))) {
      const lines = [`class ${name}(TypedDict):`];
      if (schema.description) lines.push(...docString(schema.description, "    "));
      for (const f of fields) {
        if (f.about) lines.push(...docLines(f.about, "    #: ", 100, false));
        lines.push(`    ${f.prop}: ${f.type}`);
      }
      this.blocks.push(lines.join("\n"));
    } else {
      this.blocks.push(`${name} = TypedDict(${pyString(name)}, {${fields.map((f) => `${pyString(f.prop)}: ${f.type}`).join(", ")}})`);
    }
    return name;
  }
}

type Method = { name: string; code: (async: boolean) => string };

const SUCCESS = /^[23]\d\d$/;

function operationMethod(method: string, path: string, op: Operation, doc: Document, models: Models): Method {
  const name = snake(op.operationId);
  const base = pascal(op.operationId);
  const [status, success] = Object.entries(op.responses).find(([s]) => SUCCESS.test(s)) ?? ["200", { description: "" }];
  const isFile = Boolean(success.headers?.["content-disposition"]);
  const json = success.content?.["application/json"]?.schema;
  const answer = isFile ? "Download" : json ? models.type(json, `${base}Response`) : "httpx.Response";

  // Authentication: the API key, the session token, or a scheme sent as a header of its own (the webhook's signature).
  const scheme = Object.keys(op.security?.[0] ?? {})[0];
  const def = scheme ? doc.components.securitySchemes[scheme] : undefined;
  const auth = scheme === "apiKey" ? "apiKey" : def?.scheme === "bearer" ? "bearer" : "none";
  const args: { py: string; type: string; required: boolean; where: "path" | "query" | "header" | "body"; wire: string; about?: string }[] = [];
  if (def && auth === "none" && def.type === "apiKey" && def.in === "header" && def.name)
    args.push({ py: snake(def.name), type: "str", required: true, where: "header", wire: def.name, about: `The ${def.name} header` });
  for (const p of op.parameters ?? []) {
    let type = isBoolText(p.schema) ? "bool" : models.type(p.schema, `${base}${pascal(p.name)}`);
    if (isDecimalText(p.schema)) type = "float | str";
    args.push({ py: snake(p.name), type, required: p.in === "path" || Boolean(p.required), where: p.in, wire: p.name, about: p.description });
  }
  const bodySchema = op.requestBody?.content["application/json"]?.schema;
  if (bodySchema?.properties) {
    const required = new Set<string>(bodySchema.required ?? []);
    for (const [prop, s] of Object.entries(bodySchema.properties as Record<string, Schema>)) {
      args.push({
        py: snake(prop),
        type: models.type(s, `${base}Body${pascal(prop)}`),
        required: required.has(prop),
        where: "body",
        wire: prop,
        about: s.description,
      });
    }
  }
  const seen = new Set<string>();
  for (const a of args) {
    if (seen.has(a.py)) throw new Error(`${op.operationId}: two parameters named ${a.py}`);
    seen.add(a.py);
  }
  if (isFile && args.some((a) => a.where === "path" || a.where === "header"))
    throw new Error(`${op.operationId}: a file answer with path or header parameters is not supported`);
  if (isFile)
    args.push({ py: "to", type: "Destination", required: true, where: "body", wire: "", about: "Where the file goes: a path, or a binary file object" });

  const positional = args.filter((a) => a.where === "path");
  const keyword = args.filter((a) => a.where !== "path");
  const signature = [
    "self",
    ...positional.map((a) => `${a.py}: ${a.type}`),
    ...(keyword.length ? ["*"] : []),
    ...keyword.filter((a) => a.required).map((a) => `${a.py}: ${a.type}`),
    ...keyword.filter((a) => !a.required).map((a) => `${a.py}: ${a.type} | None = None`),
  ];
  const mapping = (where: string) => {
    const list = args.filter((a) => a.where === where && a.wire);
    return list.length ? `{${list.map((a) => `${pyString(a.wire)}: ${a.py}`).join(", ")}}` : null;
  };

  // Docstring: what it does, the request, each argument, what it answers, the codes it raises.
  const errors = Object.entries(op.responses)
    .filter(([s]) => !SUCCESS.test(s))
    .flatMap(([s, r]) => Object.keys((r.content?.["application/json"] as { examples?: object } | undefined)?.examples ?? {}).map((code) => `${code} (${s})`));
  const about = op.description ?? op.summary ?? "";
  const doc_ = [
    ...docLines(about, "        "),
    "",
    `        ${method.toUpperCase()} ${path}`,
    ...(args.some((a) => a.about) ? ["", "        Args:", ...args.filter((a) => a.about).flatMap((a) => hanging(`${a.py}: ${a.about}`, "            "))] : []),
    "",
    "        Returns:",
    ...docLines(
      isFile
        ? "Download: the file's name, media type, size, checksum (checked) and data version."
        : json
          ? `${answer}: ${success.description ?? "the answer"}.`
          : `The httpx.Response (HTTP ${status}).`,
      "            ",
    ),
    ...(errors.length ? ["", "        Raises:", ...hanging(`ApiError: ${errors.join(", ")}.`, "            ")] : []),
  ];

  const callArgs = isFile
    ? [pyString(path), `auth=${pyString(auth)}`, `query=${mapping("query") ?? "None"}`, "to=to"]
    : [
        pyString(method.toUpperCase()),
        pyString(path),
        `auth=${pyString(auth)}`,
        ...(mapping("path") ? [`path_params=${mapping("path")}`] : []),
        ...(mapping("query") ? [`query=${mapping("query")}`] : []),
        ...(mapping("header") ? [`headers=${mapping("header")}`] : []),
        ...(mapping("body") ? [`body=${mapping("body")}`] : []),
      ];
  const body = (async: boolean) => {
    const self = async ? "await self." : "self.";
    const fn = isFile ? "_download" : json ? "_call" : "_send";
    if (isFile || !json) return wrapped("        ", `return ${self}${fn}(`, callArgs, ")");
    return wrapped("        ", `return cast(${pyString(answer)}, ${self}${fn}(`, callArgs, "))");
  };
  return {
    name,
    code: (async) =>
      [...wrapped("    ", `${async ? "async " : ""}def ${name}(`, signature, `) -> ${answer}:`), '        """', ...doc_, '        """', ...body(async)].join(
        "\n",
      ),
  };
}

const HEADER = (doc: Document) =>
  `# Generated by clients/generate-python.ts from the API document of ${doc.info.title} ${doc.info.version}.\n# Do not edit: regenerate (node scripts/boot.mjs node clients/generate.ts --from URL).\n`;

/** The generated files of the Python SDK: path under clients/python/src/wilayah_api → text. */
export function pythonSdk(doc: Document): Map<string, string> {
  const models = new Models();
  const methods: Method[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) methods.push(operationMethod(method, path, op, doc, models));
  }
  methods.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const modelNames = models.blocks.map((b) => /^(?:class )?(\w+)/.exec(b)?.[1] ?? "").sort();

  const modelsPy = [
    HEADER(doc),
    '"""Types of the answers and request bodies: TypedDicts (the JSON the API sends, as dicts)."""',
    "",
    "from __future__ import annotations",
    "",
    "from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeVar",
    "",
    'T = TypeVar("T")',
    "",
    "",
    models.blocks.filter((b) => b.startsWith("class PageMeta(")).join(""),
    "",
    "",
    "class Page(TypedDict, Generic[T]):",
    '    """A page of a list: its items (data) and where it is in the list (meta)."""',
    "",
    "    data: list[T]",
    "    meta: PageMeta",
    "",
    "",
    models.blocks.filter((b) => !b.startsWith("class PageMeta(")).join("\n\n\n"),
    "",
    "",
    `__all__ = [${["Page", ...modelNames.filter((n) => n !== "")].map(pyString).join(", ")}]`,
    "",
  ].join("\n");

  const clientPy = (async: boolean) => [
    `class ${async ? "AsyncClient(BaseAsyncClient)" : "Client(BaseClient)"}:`,
    async
      ? '    """Every operation of the API, asynchronously: ``async with AsyncClient(base_url, api_key=...) as client: await client.search_regions(q="bandung")``."""'
      : '    """Every operation of the API: ``with Client(base_url, api_key=...) as client: client.search_regions(q="bandung")``."""',
    "",
    methods.map((m) => m.code(async)).join("\n\n"),
  ];
  const sync = clientPy(false);
  const asyncPy = clientPy(true);
  // `Any` only when an operation answers untyped JSON (e.g. the map style): an unused import fails ruff, a missing one mypy.
  const typing = [/\bAny\b/.test([...sync, ...asyncPy].join("\n")) ? "Any" : "", "Literal", "cast"].filter(Boolean).join(", ");
  const clientFile = [
    HEADER(doc),
    '"""``Client`` and ``AsyncClient``: one method per operation of the API document."""',
    "",
    "from __future__ import annotations",
    "",
    `from typing import ${typing}`,
    "",
    "import httpx",
    "",
    "from ._base import BaseAsyncClient, BaseClient, Destination, Download",
    "from .models import *  # noqa: F403",
    "",
    "",
    ...sync,
    "",
    "",
    ...asyncPy,
    "",
    "",
    '__all__ = ["AsyncClient", "Client"]',
    "",
  ].join("\n");
  return new Map([
    ["models.py", modelsPy],
    ["_client.py", clientFile],
  ]);
}
