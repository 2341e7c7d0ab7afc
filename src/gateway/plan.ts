import type { AppContext } from "../app-context";
import { countPromptTokens } from "../billing/prompt-tokens";
import { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import type { InboundCodec } from "../ir/codec";
import type { IRRequest } from "../ir/types";
import { completionInput, OPERATION_OF_FORMAT } from "../observability/capture/request-content";
import { type Candidate, requestedModels } from "./candidates";
import { type InboundFormat, inboundCodecs } from "./codecs";
import {
  estimatePromptTokens,
  type Generation,
  openGeneration,
  type RequestFacts,
  type RequestShape,
  requiredModalities,
  routeCatalog,
  tokenWorstCase,
  withIdHeader,
} from "./generation";
import { mapRequestText } from "./guardrails/request-text";
import { wantsServiceMetadata } from "./metadata";
import { decodeWithPreset } from "./preset-merge";
import { completionCacheRequest } from "./response-cache/completion-request";
import { type ResponseMemory, resolveResponsesState } from "./responses-state";
import type { ProviderPreferences } from "./routing/preferences";

export type InferenceInput = {
  format: InboundFormat;
  body: unknown;
  principal: Principal;
  http: RequestShape;
  /** assigned when the request arrived, so that even auth and validation errors carry it */
  generationId: string;
};

/** Everything decided before the first upstream call. Nothing in it changes afterwards. */
export type InferencePlan = Readonly<{
  /** the admitted generation: its facts, its candidates in the order to try them, and its end */
  generation: Generation<Candidate, IRRequest>;
  facts: RequestFacts;
  ir: IRRequest;
  format: InboundFormat;
  inbound: InboundCodec<unknown>;
  /** the client asked for service metadata in the answer */
  wantsMetadata: boolean;
  /** session affinity is per workspace: two teams may pick the same session id */
  sessionKey: string | undefined;
  idHeader: Readonly<Record<string, string>>;
  /** the prompt's token count for a stream that announces it (InboundCodec.announcesPromptTokens), else null */
  promptTokens: Promise<number> | null;
  /** a Responses answer to keep for later item_reference / previous_response_id; null: keep nothing */
  memory: ResponseMemory | null;
  /** the body's top-level fields the inbound format does not name, for an upstream of that format (passthrough.ts) */
  unknownFields: Readonly<Record<string, unknown>>;
}>;

/** The model the request names, else the workspace's default. */
export function requestedModel(ir: IRRequest, principal: Principal): string {
  const requested = ir.model || principal.workspace.defaultTextModel;
  if (!requested) throw new GatewayError(400, "Invalid field 'model': required (the workspace has no default model)", { field: "model" });
  return requested;
}

/**
 * The prompt's tokens, counted from the next turn of the event loop: by then the upstream request
 * is on its way, so counting a long prompt (or loading the tokenizer) overlaps the upstream's wait.
 */
function countBesideUpstream(ir: IRRequest): Promise<number> {
  return new Promise<void>((resolve) => setImmediate(resolve)).then(() => countPromptTokens(ir));
}

/** decode (with the preset merged) → route → admit. */
export async function planInference(deps: AppContext, input: InferenceInput): Promise<InferencePlan> {
  const startedAt = deps.clock();
  const idHeader = { "x-generation-id": input.generationId };
  const { principal } = input;
  try {
    // references to stored items are resolved before the (synchronous) decoder sees the body
    const { body, memory } = inboundCodecs[input.format].refersToStoredItems
      ? await resolveResponsesState(deps, principal.workspace.id, input.body as Record<string, unknown>, startedAt)
      : { body: input.body, memory: null };
    const { ir, presetId } = await decodeWithPreset(deps, principal, input.format, body, input.http.headers);
    const requested = requestedModel(ir, principal);
    const unknownFields = inboundCodecs[input.format].unknownFields(input.body);
    const sessionKey = ir.sessionId ? `${principal.workspace.id}\u0000${ir.sessionId}` : undefined;
    const candidates = await routeCatalog(deps, principal, {
      models: requestedModels(deps.catalog, requested, ir.models),
      requested,
      prefs: (ir.provider ?? {}) as ProviderPreferences,
      sentParameters: ir.sentParameters,
      estimatedPromptTokens: estimatePromptTokens(ir),
      requestedOutputTokens: ir.maxOutputTokens ?? 0,
      modalities: requiredModalities(ir),
      sessionEndpoint: sessionKey ? deps.router.sessions.get(sessionKey) : undefined,
    });
    const generation = await openGeneration(deps, {
      id: input.generationId,
      startedAt,
      apiType: "completions",
      principal,
      http: input.http,
      requestedModel: requested,
      streamed: ir.stream,
      sessionId: ir.sessionId ?? null,
      externalUser: ir.user ?? null,
      presetId,
      trace: (ir.trace as Record<string, unknown> | undefined) ?? null,
      candidates,
      worstCase: tokenWorstCase(ir),
      prompt: ir,
      observe: { operation: OPERATION_OF_FORMAT[input.format], input: () => completionInput(input.format, input.body) },
      content: { request: ir, mapText: mapRequestText },
      cacheable: () => completionCacheRequest(input.format, ir, unknownFields),
    });
    // what goes upstream: the request as the guardrails' content filters left it
    const screened = generation.request ?? ir;
    return {
      generation,
      facts: generation.facts,
      ir: screened,
      format: input.format,
      inbound: inboundCodecs[input.format],
      wantsMetadata: wantsServiceMetadata(input.http.headers),
      sessionKey,
      idHeader,
      promptTokens: ir.stream && inboundCodecs[input.format].announcesPromptTokens ? countBesideUpstream(screened) : null,
      memory,
      unknownFields,
    };
  } catch (err) {
    throw withIdHeader(err, idHeader);
  }
}
