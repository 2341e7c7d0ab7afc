import { AUDIT_ACTIONS } from "../audit/actions";
import { REDACTED } from "../audit/changes";
import type { AuditEventOut } from "../modules/audit/model";
import { renderAuditEvent } from "../modules/audit/service";
import type { AuditEventRecord, Store, UserRecord } from "../store/store";

/** Where a change came from, as the Audit page shows it: read from who made it (and a sign-in's action). */
export type AuditOrigin = "console" | "api" | "cli" | "scim" | "sign-in" | "system";

/** An event as the console shows it: the API's event, and the names of who and what beside their ids. */
export type ConsoleAuditEvent = AuditEventOut & {
  origin: AuditOrigin;
  actor_name: string;
  target_name: string | null;
  workspace_name: string | null;
};

/** The kinds of resource the log records, as its actions name them (`key` of `key.create`); a sign-in's is `session`. */
export const AUDIT_RESOURCES = [...new Set(AUDIT_ACTIONS.map((a) => a.slice(0, a.indexOf("."))))] as [string, ...string[]];

/** the actions of one kind of resource */
export const actionsOf = (resource: string): string[] => AUDIT_ACTIONS.filter((a) => a.startsWith(`${resource}.`));

export function originOf(e: Pick<AuditEventRecord, "action" | "actorType">): AuditOrigin {
  if (e.action.startsWith("session.")) return "sign-in";
  const byActor = { user: "console", key: "api", scim: "scim", cli: "cli", system: "system" } as const;
  return byActor[e.actorType];
}

/**
 * Fields that hold a secret, whatever the event: the services write them redacted already (src/audit/changes.ts);
 * the console masks them once more, so that a kind of event added later without its redaction still shows none.
 */
const SECRET_FIELDS = new Set(["key", "password", "secret", "token", "webhook_secret", "sealed_config", "client_secret", "api_key"]);

function maskedChanges(changes: AuditEventOut["changes"]): AuditEventOut["changes"] {
  const mask = (v: unknown) => (v === null || v === undefined ? null : REDACTED);
  return Object.fromEntries(Object.entries(changes).map(([field, c]) => [field, SECRET_FIELDS.has(field) ? { from: mask(c.from), to: mask(c.to) } : c]));
}

/** the first of `fields` an event's changes hold as text: a thing's name as the event kept it (a deleted thing's last name, a new one's first) */
function keptText(changes: AuditEventOut["changes"], fields: readonly string[]): string | null {
  for (const field of fields) {
    const c = changes[field];
    const value = c?.to ?? c?.from;
    if (typeof value === "string" && value) return value;
  }
  return null;
}

const NAME_FIELDS = ["name", "display_name", "email", "slug"] as const;

/** the same from the newest event of the same thing that holds it (an update after the thing was deleted names only what changed) */
async function keptInHistory(store: Store, targetId: string, fields: readonly string[]): Promise<string | null> {
  for (const row of await store.audit.list({ targetId }, 50)) {
    const found = keptText(JSON.parse(row.changes) as AuditEventOut["changes"], fields);
    if (found !== null) return found;
  }
  return null;
}

export const personName = (u: UserRecord | undefined): string | null => (u ? (u.name && u.email ? `${u.name} (${u.email})` : (u.name ?? u.email)) : null);

type Lookup = (key: string, find: () => Promise<string | null>) => Promise<string | null>;

/** Looks each thing up once per page (through the read cache): current names, so a renamed key reads as it is called now. */
function namesOf(store: Store) {
  const memo = new Map<string, Promise<string | null>>();
  const once: Lookup = (key, find) => {
    let found = memo.get(key);
    if (!found) memo.set(key, (found = find()));
    return found;
  };
  const user = (id: string) => once(`user:${id}`, async () => personName(await store.users.get(id)));
  const workspace = (id: string) => once(`workspace:${id}`, async () => (await store.workspaces.find(id))?.name ?? null);
  const key = (hash: string) =>
    once(`key:${hash}`, async () => {
      const current = (await store.keys.get(hash)) ?? (await keyAfterRotation(store, hash));
      return current?.name ?? null;
    });
  const scimToken = (id: string) => once(`scim_token:${id}`, async () => (await store.scimTokens.list()).find((t) => t.id === id)?.name ?? null);
  const scimGroup = (id: string) => once(`scim_group:${id}`, async () => (await store.scimGroups.get(id))?.displayName ?? null);
  return { once, user, workspace, key, scimToken, scimGroup };
}

/** the key a hash was rotated away from (an older event names the hash the key had then) */
async function keyAfterRotation(store: Store, hash: string) {
  const previous = await store.keys.previous(hash);
  return previous ? store.keys.get(previous.keyHash) : undefined;
}

type Names = ReturnType<typeof namesOf>;

async function actorName(names: Names, e: AuditEventOut): Promise<string> {
  const { type, id, label } = e.actor;
  if (type === "user") return (id && (await names.user(id))) || label || "a removed user";
  if (type === "key") return (id && (await names.key(id))) || label || "a deleted key";
  if (type === "scim") return `SCIM client “${(id && (await names.scimToken(id))) || label || "a revoked token"}”`;
  if (type === "cli") return `${id ?? "someone"} on the command line${label ? ` (${label})` : ""}`;
  return `the gateway${label ? ` (${label})` : ""}`;
}

/** the name of what an event changed: as it is called now, else as this event or an earlier one of it kept it; null when none knows */
async function targetName(store: Store, names: Names, e: AuditEventOut): Promise<string | null> {
  const id = e.target.id;
  if (id === null) return e.target.type === "response_cache" ? "every workspace's cache" : keptText(e.changes, NAME_FIELDS);
  return (
    (await currentName(store, names, e, id)) ??
    keptText(e.changes, NAME_FIELDS) ??
    (await names.once(`history:${id}`, () => keptInHistory(store, id, NAME_FIELDS)))
  );
}

async function currentName(store: Store, names: Names, e: AuditEventOut, id: string): Promise<string | null> {
  switch (e.target.type) {
    case "key":
      return names.key(id);
    case "workspace":
      return names.workspace(id);
    case "user":
      return names.user(id);
    case "member": {
      const [who, where] = [await names.user(id), e.workspace_id && (await names.workspace(e.workspace_id))];
      return `${who ?? "a removed user"} in ${where || "a deleted workspace"}`;
    }
    case "budget": {
      const [workspaceId, interval] = id.split(":");
      return `${(workspaceId && (await names.workspace(workspaceId))) || "a deleted workspace"}, ${interval ?? ""} budget`;
    }
    case "response_cache":
      return `the cache of ${(await names.workspace(id)) ?? "a deleted workspace"}`;
    case "destination":
      return names.once(`destination:${id}`, async () => (await store.destinations.get(id))?.name ?? null);
    case "guardrail":
      return names.once(`guardrail:${id}`, async () => (await store.guardrails.get(id))?.name ?? null);
    case "byok":
      return names.once(`byok:${id}`, async () => byokName(await store.byok.get(id)));
    case "preset":
      return names.once(`preset:${id}`, () => presetName(store, id, e.workspace_id));
    case "scim_token":
      return names.scimToken(id);
    case "scim_group":
      return names.scimGroup(id);
    case "scim_mapping":
      return mappingName(store, names, e, id);
    default:
      return null;
  }
}

const byokName = (c: { name: string | null; provider: string; label: string } | undefined) => (c ? (c.name ?? `${c.provider} ${c.label}`) : null);

async function presetName(store: Store, id: string, workspaceId: string | null): Promise<string | null> {
  if (!workspaceId) return null;
  const preset = (await store.presets.list(workspaceId, 0, 1000)).find((p) => p.id === id);
  return preset ? preset.name || preset.slug : null;
}

/** "Engineering → Team": the mapping's group and workspace, from the mapping or, once deleted, the ids its events kept */
async function mappingName(store: Store, names: Names, e: AuditEventOut, id: string): Promise<string> {
  const mapping = await store.scimMappings.get(id);
  const kept = async (field: string) => keptText(e.changes, [field]) ?? (await names.once(`history:${id}:${field}`, () => keptInHistory(store, id, [field])));
  const groupId = mapping?.groupId ?? (await kept("scim_group_id"));
  const workspaceId = mapping?.workspaceId ?? e.workspace_id ?? (await kept("workspace_id"));
  const group = (groupId && (await names.scimGroup(groupId))) || "a deleted group";
  const workspace = (workspaceId && (await names.workspace(workspaceId))) || "a deleted workspace";
  return `${group} → ${workspace}`;
}

/** A page of events with their names, looked up once each. */
export async function consoleAuditEvents(store: Store, rows: readonly AuditEventRecord[]): Promise<ConsoleAuditEvent[]> {
  const names = namesOf(store);
  return Promise.all(
    rows.map(async (row) => {
      const rendered = renderAuditEvent(row);
      const e = { ...rendered, changes: maskedChanges(rendered.changes), origin: originOf(row) };
      return {
        ...e,
        actor_name: await actorName(names, e),
        target_name: await targetName(store, names, e),
        workspace_name: e.workspace_id ? await names.workspace(e.workspace_id) : null,
      };
    }),
  );
}
