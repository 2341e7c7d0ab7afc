/** The content codings the gateway precompresses static assets in, best first. */
export const ENCODINGS = ["br", "gzip"] as const;
export type Encoding = (typeof ENCODINGS)[number];

/**
 * The coding to answer with, from a request's Accept-Encoding (RFC 9110 §12.5.3): the best
 * of ours the client accepts with a non-zero weight, brotli before gzip at equal weight;
 * undefined means identity. `*` stands for every coding the header does not name.
 */
export function preferredEncoding(header: string | null): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  let best: Encoding | undefined;
  let bestWeight = 0;
  for (const encoding of ENCODINGS) {
    const weight = weights.get(encoding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) [best, bestWeight] = [encoding, weight];
  }
  return best;
}
