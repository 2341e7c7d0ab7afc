import { t } from "elysia";
import type { AppContext } from "../../app-context";
import { secretBoxOf } from "../../crypto/secret-box";
import { GatewayError } from "../../errors";
import type { SessionSource } from "../../http/viewer";
import { readGenerationContent } from "../../modules/generations/content";
import { ListGenerationsQuery } from "../../modules/generations/model";
import { generationFilter, listGenerationRecords, renderGeneration, renderListed } from "../../modules/generations/service";
import { generationsCsv } from "../generations-csv";
import { canSeeGeneration, requireWorkspace } from "../permissions";
import { recordNames } from "../record-names";
import { consoleApiModule } from "./route-module";

const GenerationParams = t.Object({ id: t.String({ minLength: 1, maxLength: 200 }) });
const MediaParams = t.Object({ id: t.String({ minLength: 1, maxLength: 200 }), index: t.Integer({ minimum: 0, maximum: 100 }) });

/** The `index`-th media item of a kept completion: media generations keep theirs as data URLs, one a line. */
function keptMedia(completion: string | null, index: number): { type: string; bytes: Buffer } | null {
  const line = completion?.split("\n")[index];
  const match = line === undefined ? null : /^data:((?:image|audio)\/[\w.+-]+);base64,([A-Za-z0-9+/=]*)$/.exec(line);
  return match ? { type: match[1]!, bytes: Buffer.from(match[2]!, "base64") } : null;
}

/**
 * The generation log, through the service of GET /api/v1/generations (keyset pages, indexed
 * filters). Managers read the whole organization; a member reads one of their workspaces at a
 * time (`workspace_id` is required of them), so each page is one indexed range. A record, and
 * the content I/O logging kept of it, is seen by managers and the members of its workspace.
 */
export function consoleGenerationRoutes(ctx: AppContext, sessions: SessionSource) {
  return (
    consoleApiModule("console-generations", ctx.store, sessions)
      .get(
        "/generations",
        async ({ viewer, query }) => {
          if (!viewer.manages && query.workspace_id === undefined)
            throw new GatewayError(400, "Missing query parameter 'workspace_id': members read the log one of their workspaces at a time", {
              field: "workspace_id",
            });
          if (query.workspace_id !== undefined) requireWorkspace(viewer, query.workspace_id);
          const { records, next_cursor } = await listGenerationRecords(ctx, query);
          const names = await recordNames(ctx, records);
          return { data: records.map((g) => ({ ...renderListed(g), ...names(g) })), next_cursor };
        },
        { auth: "session", query: ListGenerationsQuery },
      )
      // what the log's filters select, as CSV, streamed page by page (any size)
      .get(
        "/generations.csv",
        async ({ viewer, query }) => {
          if (!viewer.manages && query.workspace_id === undefined)
            throw new GatewayError(400, "Missing query parameter 'workspace_id': members export one of their workspaces at a time", { field: "workspace_id" });
          if (query.workspace_id !== undefined) requireWorkspace(viewer, query.workspace_id);
          await ctx.generations.settled();
          return new Response(generationsCsv(ctx, generationFilter(query)), {
            headers: {
              "content-type": "text/csv; charset=utf-8",
              "content-disposition": `attachment; filename="generations-${new Date(ctx.clock()).toISOString().slice(0, 10)}.csv"`,
              "cache-control": "no-store",
            },
          });
        },
        { auth: "session", query: t.Omit(ListGenerationsQuery, ["limit", "cursor"]) },
      )
      .get(
        "/generations/:id",
        async ({ viewer, params }) => {
          await ctx.generations.settled();
          const g = await ctx.store.generations.get(params.id);
          if (!g || !canSeeGeneration(viewer, g)) throw new GatewayError(404, `Generation not found: ${params.id}`);
          const names = await recordNames(ctx, [g]);
          // whether I/O logging kept its prompt and completion: the page asks for them only then
          const contentKept = (await ctx.store.generationContents.get(g.id)) !== undefined;
          return {
            data: {
              ...renderGeneration(g, await ctx.store.generations.feedback(g.id)),
              ...names(g),
              key_hash: g.keyHash,
              guardrail_flags: g.guardrailFlags ?? [],
              error_message: g.errorMessage,
              content_kept: contentKept,
            },
          };
        },
        { auth: "session", params: GenerationParams },
      )
      // the prompt and completion, through the service of GET /api/v1/generation/content, for whoever sees the record above
      .get(
        "/generations/:id/content",
        ({ viewer, params }) => {
          const deps = { store: ctx.store, secrets: secretBoxOf(ctx), generations: ctx.generations };
          return readGenerationContent(deps, params.id, (g) => canSeeGeneration(viewer, g));
        },
        { auth: "session", params: GenerationParams },
      )
      // a generated image or the speech of a media generation, from the content kept above, as a file of this origin
      // (the page's Content-Security-Policy plays media of its own origin only)
      .get(
        "/generations/:id/media/:index",
        async ({ viewer, params }) => {
          const deps = { store: ctx.store, secrets: secretBoxOf(ctx), generations: ctx.generations };
          const { data } = await readGenerationContent(deps, params.id, (g) => canSeeGeneration(viewer, g));
          const media = keptMedia(data.output.completion, params.index);
          if (!media) throw new GatewayError(404, `Generation ${params.id} kept no media at ${params.index}`);
          return new Response(new Uint8Array(media.bytes), { headers: { "content-type": media.type, "cache-control": "private, max-age=3600" } });
        },
        { auth: "session", params: MediaParams },
      )
  );
}
