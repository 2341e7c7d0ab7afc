/**
 * Text that is stored can hold no NUL character: PostgreSQL refuses it (SQLite would keep it,
 * and the two dialects must agree). A request carrying one in a value the store keeps or looks
 * up gets a 400 naming the field, instead of a database error. Inference bodies are exempt:
 * their content goes upstream, not into the store, and the fields a generation record keeps
 * are cleaned by the store itself.
 */
const NUL = "\u0000";

/** The path of the first string (or object key) holding a NUL, e.g. `allowed_models[2]`; null when there is none. */
export function nulField(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes(NUL) ? path || "(root)" : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (key.includes(NUL)) return field;
      const found = nulField(v, field);
      if (found !== null) return found;
    }
  }
  return null;
}

const INFERENCE_PATHS = new Set(["/api/v1/chat/completions", "/api/v1/responses", "/api/v1/messages", "/api/v1/embeddings"]);

/** Which part of a request holds a NUL: path parameters and query always, the body outside inference. */
export function nulInRequest(path: string, parts: { params?: unknown; query?: unknown; body?: unknown }): string | null {
  return nulField(parts.params ?? {}) ?? nulField(parts.query ?? {}) ?? (INFERENCE_PATHS.has(path) ? null : nulField(parts.body));
}
