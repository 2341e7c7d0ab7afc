import type { AppContext } from "../../app-context";
import { MessagesRequestSchema } from "../../formats/anthropic-messages";
import { ChatRequestSchema } from "../../formats/openai-chat";
import { ResponsesRequestSchema } from "../../formats/openai-responses";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { ListPresetsResponse, ListPresetVersionsResponse, PageQuery, PresetResponse, PresetVersionResponse, SlugParams, VersionParams } from "./model";
import { createPresetVersion, getPreset, getPresetVersion, listPresets, listPresetVersions } from "./service";

const tags = ["Presets"];
const created = "Create the preset, or add a version and designate it, from the configuration fields of";

export function presetRoutes(ctx: AppContext) {
  return routeModule("presets", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .post(
      "/presets/:slug/responses",
      async ({ origin, principal, params, body }) => ({ data: await createPresetVersion(ctx, origin, principal, params.slug, "openai-responses", body) }),
      {
        auth: "any",
        params: SlugParams,
        body: ResponsesRequestSchema,
        response: PresetResponse,
        detail: { tags, summary: `${created} a Responses request body` },
      },
    )
    .post(
      "/presets/:slug/chat/completions",
      async ({ origin, principal, params, body }) => ({ data: await createPresetVersion(ctx, origin, principal, params.slug, "openai-chat", body) }),
      {
        auth: "any",
        params: SlugParams,
        body: ChatRequestSchema,
        response: PresetResponse,
        detail: { tags, summary: `${created} a Chat Completions request body` },
      },
    )
    .post(
      "/presets/:slug/messages",
      async ({ origin, principal, params, body }) => ({ data: await createPresetVersion(ctx, origin, principal, params.slug, "anthropic-messages", body) }),
      {
        auth: "any",
        params: SlugParams,
        body: MessagesRequestSchema,
        response: PresetResponse,
        detail: { tags, summary: `${created} a Messages request body` },
      },
    )
    .get("/presets", ({ principal, query }) => listPresets(ctx, principal.workspace.id, query), {
      auth: "any",
      query: PageQuery,
      response: ListPresetsResponse,
      detail: { tags, summary: "List the presets of the caller's workspace, most recently updated first" },
    })
    .get("/presets/:slug", async ({ principal, params }) => ({ data: await getPreset(ctx, principal.workspace.id, params.slug) }), {
      auth: "any",
      params: SlugParams,
      response: PresetResponse,
      detail: { tags, summary: "Get a preset with its designated version" },
    })
    .get("/presets/:slug/versions", ({ principal, params, query }) => listPresetVersions(ctx, principal.workspace.id, params.slug, query), {
      auth: "any",
      params: SlugParams,
      query: PageQuery,
      response: ListPresetVersionsResponse,
      detail: { tags, summary: "List the versions of a preset, oldest first" },
    })
    .get(
      "/presets/:slug/versions/:version",
      async ({ principal, params }) => ({ data: await getPresetVersion(ctx, principal.workspace.id, params.slug, params.version) }),
      {
        auth: "any",
        params: VersionParams,
        response: PresetVersionResponse,
        detail: { tags, summary: "Get one version of a preset" },
      },
    );
}
