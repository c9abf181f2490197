/**
 * Query strings as typed input. A query string carries text only, so a parameter that a schema
 * types as an integer is turned into one here, and only when it is plain decimal digits
 * (`0x10`, `1e3`, `+3`, ` 2 ` stay text and fail validation). A parameter given twice is refused
 * instead of silently taking one of the values.
 */
import { z } from "zod";
import { ApiError } from "../lib/errors";

type Raw = Record<string, string | string[] | undefined>;

const DECIMAL = /^[0-9]{1,15}$/;

/** The fields of an object schema whose value is a number, however wrapped (default, optional). */
const numericKeys = new WeakMap<z.ZodType, Set<string>>();
function numericFields(schema: z.ZodType): Set<string> {
  let keys = numericKeys.get(schema);
  if (!keys) {
    keys = new Set();
    const shape: Record<string, z.ZodType> = schema instanceof z.ZodObject ? schema.shape : {};
    for (const [k, field] of Object.entries(shape)) {
      let def = field._zod.def as { type: string; innerType?: z.ZodType };
      while (def.innerType) def = def.innerType._zod.def as typeof def;
      if (def.type === "number") keys.add(k);
    }
    numericKeys.set(schema, keys);
  }
  return keys;
}

/** Query values (repeated keys as arrays, as Hono's validator gives them) -> input for `schema`. */
export function typedQuery(schema: z.ZodType, raw: Raw): Record<string, unknown> {
  const numeric = numericFields(schema);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v)) {
      if (v.length > 1) {
        throw new ApiError("INVALID_QUERY", `Query parameter "${k}" is given ${v.length} times; give it once.`, {
          details: [{ path: k, message: "given more than once" }],
        });
      }
      out[k] = v[0];
    } else out[k] = v;
    if (numeric.has(k) && typeof out[k] === "string" && DECIMAL.test(out[k] as string)) out[k] = Number(out[k]);
  }
  return out;
}

/** `c.req.queries()` in the shape Hono's validator uses: one value as a string, repeats as an array. */
export function queryValues(queries: Record<string, string[]>): Raw {
  return Object.fromEntries(Object.entries(queries).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
}
