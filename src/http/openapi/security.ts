import type { DocumentDecoration } from "elysia";
import type { AuthKind } from "../auth-kind";
import type { Operation } from "./walk";

/** The two ways a key may be sent (auth.ts), as OpenAPI security schemes. */
export const securitySchemes = {
  bearer: { type: "http", scheme: "bearer", description: "An API key: Authorization: Bearer <key>" },
  apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "The same key in x-api-key, as Anthropic clients send it" },
} as const;

/** Vendor extension naming the kind of key an operation takes; absent on public operations. */
export const KEY_KIND = "x-key-kind";

const KIND_NOTE: Record<AuthKind, string> = {
  management: "Requires a management key; an inference key gets 403.",
  inference: "Requires an inference key; a management key gets 403.",
  any: "Takes an inference or a management key.",
};

/** What the `auth` macro adds to a route's documentation: either scheme, and which kind of key the route takes. */
export function securityOf(kind: AuthKind): DocumentDecoration {
  return { security: [{ bearer: [] }, { apiKey: [] }], [KEY_KIND]: kind } as DocumentDecoration;
}

export const keyKindOf = (operation: Operation): AuthKind | undefined => operation[KEY_KIND] as AuthKind | undefined;

/** An operation as documented: public ones need no key (the document has no global requirement); the others say which key. */
export function documentSecurity(operation: Operation): Operation {
  const kind = keyKindOf(operation);
  if (!kind) return { ...operation, security: [] };
  const description = [operation.description, KIND_NOTE[kind]].filter(Boolean).join("\n\n");
  return { ...operation, description };
}
