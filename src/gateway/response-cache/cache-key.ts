import stringify from "safe-stable-stringify";

/**
 * The key of an answer in the response cache: a SHA-256 of the workspace and the canonical JSON
 * of the request (object keys sorted at every depth, so two bodies that differ only in key order
 * share an entry). The workspace is part of what is hashed and stored beside it: no key of one
 * workspace can meet another's entry.
 */
export function cacheKey(workspaceId: string, request: unknown): string {
  return new Bun.CryptoHasher("sha256")
    .update(workspaceId)
    .update("\n")
    .update(stringify(request) ?? "")
    .digest("hex");
}
