/**
 * Text that is stored can hold no NUL character: PostgreSQL refuses it (SQLite would keep it,
 * and the two dialects must agree). A request carrying one in a value the store keeps or looks
 * up gets a 400 naming the field, instead of a database error. Inference bodies are exempt:
 * their content goes upstream, not into the store, and the fields a generation record keeps
 * are cleaned by the store itself.
 */
import { pointerToField } from "../json-pointer";

const NUL = "\u0000";

/** The JSON pointer of the first string (or object key) holding a NUL; null when there is none. */
function nulPointer(value: unknown, pointer: string): string | null {
  if (typeof value === "string") return value.includes(NUL) ? pointer : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, v] of Object.entries(value)) {
    const at = `${pointer}/${key}`;
    const found = key.includes(NUL) ? at : nulPointer(v, at);
    if (found !== null) return found;
  }
  return null;
}

/** The field (as users read it: `allowed_models[2]`) of the first NUL in the value; null when there is none. */
export function nulField(value: unknown): string | null {
  const pointer = nulPointer(value, "");
  return pointer === null ? null : pointerToField(pointer) || "(root)";
}

/** Which part of a request holds a NUL: path parameters and query always, the body unless it only goes upstream. */
export function nulInRequest(parts: { params?: unknown; query?: unknown; body?: unknown }, bodyIsStored: boolean): string | null {
  return nulField(parts.params ?? {}) ?? nulField(parts.query ?? {}) ?? (bodyIsStored ? nulField(parts.body) : null);
}
