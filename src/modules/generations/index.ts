import type { AppContext } from "../../app-context";
import { secretBoxOf } from "../../crypto/secret-box";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { getGenerationContent } from "./content";
import {
  FeedbackBody,
  FeedbackResponse,
  GenerationContentResponse,
  GenerationQuery,
  GenerationResponse,
  ListGenerationsQuery,
  ListGenerationsResponse,
} from "./model";
import { getGeneration, listGenerations, submitFeedback } from "./service";

export function generationRoutes(ctx: AppContext) {
  return routeModule("generations", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/generation", async ({ query, principal }) => ({ data: await getGeneration(ctx.store, principal, query.id, ctx.generations) }), {
      auth: "any",
      query: GenerationQuery,
      response: GenerationResponse,
      detail: { tags: ["Generations"], summary: "Metadata of one generation" },
    })
    .get(
      "/generation/content",
      ({ query, principal }) => getGenerationContent({ store: ctx.store, secrets: secretBoxOf(ctx), generations: ctx.generations }, principal, query.id),
      {
        auth: "any",
        query: GenerationQuery,
        response: GenerationContentResponse,
        detail: {
          tags: ["Generations"],
          summary: "The prompt and completion of one generation",
          description:
            "What the workspace's I/O logging kept (is_observability_io_logging_enabled, io_logging_sampling_rate, io_logging_api_key_ids), for io_logging.retention_days. " +
            "The key that made the generation and management keys may read it; 404 when nothing was kept.",
        },
      },
    )
    .get("/generations", ({ query }) => listGenerations({ store: ctx.store, generations: ctx.generations }, query), {
      auth: "management",
      query: ListGenerationsQuery,
      response: ListGenerationsResponse,
      detail: {
        tags: ["Generations"],
        summary: "List generations, newest first",
        description:
          "Filters: api_key_hash, workspace_id, model, provider, status (success, error, cancelled), from and to (ISO 8601), flagged (true: only generations a guardrail " +
          "content filter with action flag matched; each lists them in guardrail_flags). Keyset pages of limit (1-100, default 50): pass next_cursor back as cursor.",
      },
    })
    .post("/generation/feedback", ({ body, principal }) => submitFeedback(ctx, principal, body), {
      auth: "any",
      body: FeedbackBody,
      response: FeedbackResponse,
      detail: {
        tags: ["Generations"],
        summary: "Submit feedback on a generation",
        description:
          "category: latency, incoherence, incorrect_response, formatting, billing, api_error or other; comment up to 1000 characters. Stored with the generation and listed in " +
          "its record (GET /generation, field feedback). An inference key may rate generations of its own workspace, a management key any; other ids are 404.",
      },
    });
}
