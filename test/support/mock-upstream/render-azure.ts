// Azure OpenAI's deployments API: Chat Completions as Azure sends it. Every object's keys in
// alphabetical order; content-filter results on the prompt (`prompt_filter_results`) and on each
// choice (`content_filter_results`); a stream that opens with a chunk holding only the prompt's
// results (`choices: []`, empty id, model and object, created 0); Azure's own error bodies
// (`{error: {code: "429", message}}`); and the request checks Azure makes before any model runs:
// no api-version is 404, no api-key (nor Entra bearer token) is 401. Reasoning deployments return
// no reasoning text through Chat Completions, only its token count, so a turn's reasoning is not shown.
// https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter

import { renderChatChunks, renderChatJson } from "./render-chat.ts";
import { openAiErrorBody } from "./render-error.ts";
import { finishOf } from "./turn-parts.ts";
import type { MockTurn, RecordedRequest, RenderContext, SseEvent } from "./types.ts";

// written with their keys in order already, so that sorting can leave them as they are
const SAFE = { filtered: false, severity: "safe" };
const SAFE_RESULTS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
/** What the completion filter reports when it stops an answer (finish content_filter). */
const FILTERED_RESULTS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: { filtered: true, severity: "medium" } };
const PROMPT_FILTER_RESULTS = [
  { content_filter_results: { hate: SAFE, jailbreak: { detected: false, filtered: false }, self_harm: SAFE, sexual: SAFE, violence: SAFE }, prompt_index: 0 },
];
const PRESORTED = new WeakSet<object>([SAFE_RESULTS, FILTERED_RESULTS, PROMPT_FILTER_RESULTS]);

/** Azure serialises every object with its keys sorted. */
function sorted(value: unknown): unknown {
  if (value === null || typeof value !== "object" || PRESORTED.has(value)) return value;
  if (Array.isArray(value)) return value.map(sorted);
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}

/** The stream's opening chunk: the prompt's filter results alone, id, model and object empty. */
const OPENING: SseEvent = { data: JSON.stringify({ choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: PROMPT_FILTER_RESULTS }) };

/** Content-filter results on each choice: none yet on the role chunk, filtered on a content_filter finish, safe otherwise. */
function withChoiceResults(body: any, turn: MockTurn): any {
  if (!Array.isArray(body?.choices)) return body;
  const filteredEnd = finishOf(turn) === "content_filter";
  const choices = body.choices.map((choice: any) => {
    const opening = choice.delta?.role !== undefined;
    const results = choice.finish_reason === "content_filter" && filteredEnd ? FILTERED_RESULTS : opening ? {} : SAFE_RESULTS;
    return { ...choice, content_filter_results: results };
  });
  return { ...body, choices };
}

/** The turn as Azure's Chat Completions show it: reasoning counted in usage, its text never sent. */
const shown = (turn: MockTurn): MockTurn => ({ ...turn, reasoning: undefined });

export function renderAzureJson(turn: MockTurn, ctx: RenderContext): unknown {
  const { service_tier: _tier, ...body } = withChoiceResults(renderChatJson(shown(turn), ctx), turn);
  return sorted({ ...body, prompt_filter_results: PROMPT_FILTER_RESULTS });
}

/** A chat chunk in Azure's key order, built field by field: the bench streams thousands of them. */
function azureChunk(chunk: any): unknown {
  const { choices, created, id, model, object, system_fingerprint, usage } = chunk;
  const sortedChoices = choices.map((c: any) => ({
    content_filter_results: c.content_filter_results,
    delta: sorted(c.delta),
    finish_reason: c.finish_reason,
    index: c.index,
    logprobs: c.logprobs,
  }));
  return { choices: sortedChoices, created, id, model, object, system_fingerprint, ...(usage === undefined ? {} : { usage: sorted(usage) }) };
}

export function renderAzureEvents(turn: MockTurn, ctx: RenderContext): SseEvent[] {
  // built from the chunk objects, not parsed back from their text: the bench streams thousands of them
  const events = renderChatChunks(shown(turn), ctx).map((chunk) =>
    chunk === "[DONE]" ? { data: chunk } : { data: JSON.stringify(azureChunk(withChoiceResults(chunk, turn))) },
  );
  return [OPENING, ...events];
}

const AZURE_ERRORS: Record<number, { code: string; message: string }> = {
  401: {
    code: "401",
    message:
      "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.",
  },
  404: {
    code: "DeploymentNotFound",
    message:
      "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.",
  },
  429: {
    code: "429",
    message:
      "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2025-04-01-preview have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 1 second.",
  },
  500: { code: "InternalServerError", message: "The server had an error while processing your request. Sorry about that!" },
};

/** Azure's error body for a status; a 400 is an OpenAI-style validation error, as Azure passes those on. */
export function azureErrorBody(status: number): unknown {
  const known = AZURE_ERRORS[status] ?? (status >= 500 ? AZURE_ERRORS[500] : undefined);
  return known ? { error: known } : openAiErrorBody(status);
}

/** The 400 Azure answers when its content filter flags the prompt, with the categories that did it. */
export function azureContentFilterError(filtered: string[] = ["violence"]): unknown {
  const verdict = (category: string) => (filtered.includes(category) ? { filtered: true, severity: "medium" } : SAFE);
  return {
    error: {
      message:
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
      type: null,
      param: "prompt",
      code: "content_filter",
      status: 400,
      innererror: {
        code: "ResponsibleAIPolicyViolation",
        content_filter_result: {
          hate: verdict("hate"),
          jailbreak: { filtered: filtered.includes("jailbreak"), detected: filtered.includes("jailbreak") },
          self_harm: verdict("self_harm"),
          sexual: verdict("sexual"),
          violence: verdict("violence"),
        },
      },
    },
  };
}

/** Azure's checks before any model runs: an api-version, and a key (or an Entra token). */
export function azureRefusal(rec: RecordedRequest): { status: number; body: unknown } | undefined {
  if (!new URL(rec.path, "http://mock").searchParams.get("api-version"))
    return { status: 404, body: { error: { code: "404", message: "Resource not found" } } };
  if (!rec.headers["api-key"] && !/^Bearer ./.test(rec.headers.authorization ?? ""))
    return {
      status: 401,
      body: {
        error: { code: "401", message: "Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API." },
      },
    };
  return undefined;
}
