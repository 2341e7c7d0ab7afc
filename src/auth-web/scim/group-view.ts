import type { ScimGroupRecord, UserRecord } from "../../store/store";
import { isoTime } from "../../time";
import { GROUP_SCHEMA } from "./discovery";
import { ScimProblem } from "./errors";

/** A SCIM Group (RFC 7643, section 4.2): its members are users, named by their ids. */
export type ScimGroupView = {
  schemas: string[];
  id: string;
  externalId?: string;
  displayName: string;
  members: Array<{ value: string; display: string; $ref: string }>;
  meta: { resourceType: "Group"; created: string; lastModified: string; location: string };
};

/** What a SCIM client may set on a group. */
export type ScimGroupInput = { displayName: string; externalId: string | null; memberIds: string[] };

export function scimGroupView(group: ScimGroupRecord, members: ReadonlyArray<Pick<UserRecord, "id" | "email" | "name">>, base: string): ScimGroupView {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId && { externalId: group.externalId }),
    displayName: group.displayName,
    members: members.map((u) => ({ value: u.id, display: u.name ?? u.email ?? u.id, $ref: `${base}/scim/v2/Users/${u.id}` })),
    meta: {
      resourceType: "Group",
      created: isoTime(group.createdAt),
      lastModified: isoTime(group.updatedAt),
      location: `${base}/scim/v2/Groups/${group.id}`,
    },
  };
}

const text = (value: unknown, field: string): string | null => {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || value.length > 200)
    throw new ScimProblem(400, `Attribute '${field}' must be a string of at most 200 characters`, "invalidValue");
  return value.trim();
};

/** A Group resource as a client sent it (POST, PUT, or after a PATCH). */
export function scimGroupInput(body: unknown): ScimGroupInput {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ScimProblem(400, "The body must be a Group resource", "invalidSyntax");
  const r = body as Record<string, unknown>;
  const displayName = text(r.displayName, "displayName");
  if (!displayName) throw new ScimProblem(400, "Attribute 'displayName' is required", "invalidValue");
  const members = r.members ?? [];
  if (!Array.isArray(members)) throw new ScimProblem(400, "Attribute 'members' must be an array", "invalidValue");
  const memberIds = members.map((m, i) => {
    const value = (m as { value?: unknown } | null)?.value;
    if (typeof value !== "string" || value === "") throw new ScimProblem(400, `Attribute 'members[${i}].value' must be a user id`, "invalidValue");
    return value;
  });
  return { displayName, externalId: text(r.externalId, "externalId"), memberIds: [...new Set(memberIds)] };
}
