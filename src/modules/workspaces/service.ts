import { changesBetween } from "../../audit/changes";
import type { ChangeOrigin } from "../../audit/origin";
import { type AuditTables, recordChange } from "../../audit/record";
import type { Config } from "../../config";
import { badRequest, conflict, notFound } from "../../errors";
import { defaultGuardrailId } from "../../gateway/guardrails/default-guardrail";
import type { HostLookup } from "../../outbound/host-lookup";
import { requireOutboundUrl } from "../../outbound/policy";
import { NO_RATE_LIMIT, type Store, type StoreTables, type WorkspacePatch, type WorkspaceRecord } from "../../store/store";
import { isoOrNull, isoTime } from "../../time";
import { patchedRateLimit } from "../keys/rate-limit";
import { type CreateWorkspaceInput, SETTINGS_KEYS, type UpdateWorkspaceInput, type WorkspaceDataOut } from "./model";

export type WorkspaceDeps = { store: Store; clock: () => number; config: Pick<Config, "security">; lookup?: HostLookup };

/** by UUID or slug; 404 otherwise */
export async function findWorkspace(store: Pick<Store, "workspaces">, ref: string): Promise<WorkspaceRecord> {
  const ws = await store.workspaces.find(ref);
  if (!ws) throw notFound(`Workspace not found: ${ref}`);
  return ws;
}

export function renderWorkspace(ws: WorkspaceRecord): WorkspaceDataOut {
  const s = ws.settings as Partial<Record<string, unknown>>;
  return {
    id: ws.id,
    name: ws.name,
    slug: ws.slug,
    description: ws.description,
    created_at: isoTime(ws.createdAt),
    updated_at: isoOrNull(ws.updatedAt),
    created_by: ws.createdBy,
    default_guardrail_id: defaultGuardrailId(ws.id),
    default_text_model: ws.defaultTextModel,
    default_image_model: ws.defaultImageModel,
    default_provider_sort: ws.defaultProviderSort,
    rate_limit: ws.rateLimit,
    webhook_url: ws.webhookUrl,
    disabled_server_tools: (s.disabled_server_tools as string[] | null | undefined) ?? null,
    io_logging_api_key_ids: (s.io_logging_api_key_ids as number[] | null | undefined) ?? null,
    io_logging_sampling_rate: (s.io_logging_sampling_rate as number | undefined) ?? 1,
    is_data_discount_logging_enabled: (s.is_data_discount_logging_enabled as boolean | undefined) ?? false,
    is_observability_broadcast_enabled: (s.is_observability_broadcast_enabled as boolean | undefined) ?? false,
    is_observability_io_logging_enabled: (s.is_observability_io_logging_enabled as boolean | undefined) ?? false,
  };
}

/** Records a workspace's change in the transaction `tx` that makes it (null `before`: created; null `after`: deleted); `extra` for what the record does not show (a rotated secret). */
export function recordWorkspaceChange(
  tx: AuditTables,
  now: number,
  origin: ChangeOrigin,
  action: "workspace.create" | "workspace.update" | "workspace.delete",
  before: WorkspaceRecord | null,
  after: WorkspaceRecord | null,
  extra: { secrets?: Record<string, string | null>; previousSecrets?: Record<string, string | null> } = {},
) {
  const shown = (ws: WorkspaceRecord | null, secrets: Record<string, string | null> | undefined) => {
    if (!ws) return null;
    const { created_at: _c, updated_at: _u, ...fields } = renderWorkspace(ws);
    return { ...fields, ...secrets };
  };
  const ws = (after ?? before)!;
  return recordChange(tx, now, origin, {
    action,
    target: { type: "workspace", id: ws.id },
    workspaceId: ws.id,
    changes: changesBetween(shown(before, extra.previousSecrets), shown(after, extra.secrets), Object.keys(extra.secrets ?? {})),
  });
}

function settingsFrom(body: UpdateWorkspaceInput, base: Record<string, unknown>): Record<string, unknown> {
  const settings = { ...base };
  for (const k of SETTINGS_KEYS) if (body[k] !== undefined) settings[k] = body[k];
  return settings;
}

async function assertSlugFree(store: StoreTables, slug: string, self?: string): Promise<void> {
  const other = await store.workspaces.find(slug);
  if (other && other.id !== self && other.slug === slug) throw conflict(`A workspace with slug '${slug}' already exists`, { slug });
}

export async function listWorkspaces(deps: WorkspaceDeps, query: { offset?: number; limit?: number }) {
  const page = await deps.store.workspaces.list(query.offset ?? 0, query.limit ?? 50);
  return { data: page.map(renderWorkspace), total_count: await deps.store.workspaces.count() };
}

/** checked before the transaction: resolving a host name must not hold the write lock */
const checkedWebhookUrl = async (deps: WorkspaceDeps, url: string | null | undefined) =>
  url === undefined || url === null ? url : requireOutboundUrl(deps, "webhook_url", url);

/** `createdBy`: the user who asked (the calling key's, or the console's signed-in user) */
export async function createWorkspace(
  deps: WorkspaceDeps,
  origin: ChangeOrigin,
  createdBy: string | null,
  body: CreateWorkspaceInput,
): Promise<WorkspaceDataOut> {
  const webhookUrl = await checkedWebhookUrl(deps, body.webhook_url);
  return deps.store.transaction(async (tx) => {
    await assertSlugFree(tx, body.slug);
    const ws = await tx.workspaces.create({
      id: crypto.randomUUID(),
      name: body.name,
      slug: body.slug,
      description: body.description ?? null,
      isDefault: false,
      defaultTextModel: body.default_text_model ?? null,
      defaultImageModel: body.default_image_model ?? null,
      defaultProviderSort: body.default_provider_sort ?? null,
      rateLimit: patchedRateLimit(NO_RATE_LIMIT, body.rate_limit ?? null),
      settings: settingsFrom(body, {}),
      webhookUrl: webhookUrl ?? null,
      createdBy,
      createdAt: deps.clock(),
      updatedAt: null,
    });
    await recordWorkspaceChange(tx, ws.createdAt, origin, "workspace.create", null, ws);
    return renderWorkspace(ws);
  });
}

export async function getWorkspace(deps: WorkspaceDeps, ref: string): Promise<WorkspaceDataOut> {
  return renderWorkspace(await findWorkspace(deps.store, ref));
}

export async function updateWorkspace(deps: WorkspaceDeps, origin: ChangeOrigin, ref: string, body: UpdateWorkspaceInput): Promise<WorkspaceDataOut> {
  const webhookUrl = await checkedWebhookUrl(deps, body.webhook_url);
  return deps.store.transaction(async (tx) => {
    const ws = await findWorkspace(tx, ref);
    if (body.slug !== undefined) await assertSlugFree(tx, body.slug, ws.id);
    const patch: WorkspacePatch = { settings: settingsFrom(body, ws.settings) };
    if (body.name !== undefined) patch.name = body.name;
    if (body.slug !== undefined) patch.slug = body.slug;
    if (body.description !== undefined) patch.description = body.description;
    if (body.default_text_model !== undefined) patch.defaultTextModel = body.default_text_model;
    if (body.default_image_model !== undefined) patch.defaultImageModel = body.default_image_model;
    if (body.default_provider_sort !== undefined) patch.defaultProviderSort = body.default_provider_sort;
    if (body.rate_limit !== undefined) patch.rateLimit = patchedRateLimit(ws.rateLimit, body.rate_limit);
    if (webhookUrl !== undefined) patch.webhookUrl = webhookUrl;
    const now = deps.clock();
    const updated = (await tx.workspaces.update(ws.id, patch, now))!;
    await recordWorkspaceChange(tx, now, origin, "workspace.update", ws, updated);
    return renderWorkspace(updated);
  });
}

export function deleteWorkspace(deps: WorkspaceDeps, origin: ChangeOrigin, ref: string, confirmDefault: boolean): Promise<{ deleted: true }> {
  return deps.store.transaction(async (tx) => {
    const ws = await findWorkspace(tx, ref);
    if (ws.isDefault && !confirmDefault)
      throw badRequest("Deleting the default workspace requires confirm_default_workspace_deletion=true", { field: "confirm_default_workspace_deletion" });
    const now = deps.clock();
    const active = await tx.workspaces.countActiveKeys(ws.id, now);
    if (active > 0) throw conflict(`Workspace '${ws.slug}' still has ${active} active API key(s); delete or disable them first`, { active_keys: active });
    await tx.workspaces.delete(ws.id, now);
    await recordWorkspaceChange(tx, now, origin, "workspace.delete", ws, null);
    return { deleted: true as const };
  });
}
