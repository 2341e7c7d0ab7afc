/**
 * Embedding vectors on the wire: a float array, or base64 of little-endian float32 (what the
 * openai SDK asks for by default). Upstreams may answer either way; the client gets what it asked.
 */

export function vectorToBase64(values: number[]): string {
  const buf = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => buf.writeFloatLE(v, i * 4));
  return buf.toString("base64");
}

export function base64ToVector(b64: string): number[] {
  const buf = Buffer.from(b64, "base64");
  const out: number[] = new Array(Math.floor(buf.length / 4));
  for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(i * 4);
  return out;
}

export function encodeVector(embedding: number[] | string, format: "float" | "base64"): number[] | string {
  if (format === "base64") return typeof embedding === "string" ? embedding : vectorToBase64(embedding);
  return typeof embedding === "string" ? base64ToVector(embedding) : embedding;
}
