import type { ScimUserRecord, UserRecord } from "../../store/store";
import { isoTime } from "../../time";
import { USER_SCHEMA } from "./discovery";
import { ScimProblem } from "./errors";

/** A gateway user as a SCIM User (RFC 7643, section 4.1): `id` is the user's id, `userName` their email. */
export type ScimUserView = {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name: { formatted?: string; givenName?: string; familyName?: string };
  displayName?: string;
  emails: Array<{ value: string; type: string; primary: boolean }>;
  active: boolean;
  groups: Array<{ value: string; display: string; $ref: string }>;
  meta: { resourceType: "User"; created: string; lastModified: string; location: string };
};

/** What a SCIM client may set on a user. */
export type ScimUserInput = {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
  active: boolean;
};

const defined = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;

export function scimUserView(
  user: UserRecord,
  extra: ScimUserRecord | undefined,
  groups: Array<{ id: string; displayName: string }>,
  base: string,
): ScimUserView {
  const email = user.email ?? "";
  return {
    schemas: [USER_SCHEMA],
    id: user.id,
    ...(extra?.externalId && { externalId: extra.externalId }),
    userName: email,
    name: defined({ formatted: user.name ?? undefined, givenName: extra?.givenName ?? undefined, familyName: extra?.familyName ?? undefined }),
    ...(user.name && { displayName: user.name }),
    emails: email ? [{ value: email, type: "work", primary: true }] : [],
    active: !user.disabled,
    groups: groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${base}/scim/v2/Groups/${g.id}` })),
    meta: {
      resourceType: "User",
      created: isoTime(user.createdAt),
      lastModified: isoTime(extra?.updatedAt ?? user.createdAt),
      location: `${base}/scim/v2/Users/${user.id}`,
    },
  };
}

/** Entra ID sends booleans as the strings "True" and "False"; RFC 7643 says JSON booleans. Both are read. */
export function scimBoolean(value: unknown, field: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  throw new ScimProblem(400, `Attribute '${field}' must be a boolean`, "invalidValue");
}

const text = (value: unknown, field: string, max = 320): string | null => {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || value.length > max)
    throw new ScimProblem(400, `Attribute '${field}' must be a string of at most ${max} characters`, "invalidValue");
  return value.trim();
};

/** A User resource as a client sent it (POST, PUT, or after a PATCH), read into what the gateway keeps. */
export function scimUserInput(body: unknown): ScimUserInput {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ScimProblem(400, "The body must be a User resource", "invalidSyntax");
  const r = body as Record<string, unknown>;
  const userName = text(r.userName, "userName");
  if (!userName) throw new ScimProblem(400, "Attribute 'userName' is required", "invalidValue");
  const name = (typeof r.name === "object" && r.name !== null ? r.name : {}) as Record<string, unknown>;
  const givenName = text(name.givenName, "name.givenName", 200);
  const familyName = text(name.familyName, "name.familyName", 200);
  const joined = [givenName, familyName].filter(Boolean).join(" ") || null;
  return {
    userName,
    externalId: text(r.externalId, "externalId", 200),
    givenName,
    familyName,
    name: text(name.formatted, "name.formatted", 200) ?? text(r.displayName, "displayName", 200) ?? joined,
    active: r.active === undefined ? true : scimBoolean(r.active, "active"),
  };
}
