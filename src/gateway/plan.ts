import type { Server } from "bun";
import type { AppContext } from "../app-context";
import { admit } from "../billing/admission";
import { estimatePromptTokens, requiredModalities } from "../billing/estimate";
import { countPromptTokens } from "../billing/prompt-tokens";
import { admitRate, rateRelease, type RateTicket } from "../billing/rate-limit";
import { GatewayError } from "../errors";
import type { Principal } from "../http/principal";
import type { InboundCodec } from "../ir/codec";
import type { IRRequest } from "../ir/types";
import { requestedModels, type Candidate } from "./candidates";
import { inboundCodecs, type InboundFormat } from "./codecs";
import { credentialResolver } from "./credentials";
import { wantsServiceMetadata } from "./metadata";
import { decodeWithPreset } from "./preset-merge";
import { resolveResponsesState, type ResponseMemory } from "./responses-state";
import type { RequestFacts } from "./record";
import { planRoute, type PlanInput } from "./routing/plan";
import type { ProviderPreferences } from "./routing/preferences";
import { forwardTargets, NO_TARGETS, observePlan } from "../observability/capture/observe-plan";
import { completionInput, OPERATION_OF_FORMAT } from "../observability/capture/request-content";

export type InferenceInput = {
  format: InboundFormat;
  body: unknown;
  principal: Principal;
  request: Request;
  server: Server<unknown> | null;
  /** assigned when the request arrived, so that even auth and validation errors carry it */
  generationId: string;
};

/** Everything decided before the first upstream call. Nothing in it changes afterwards. */
export type InferencePlan = Readonly<{
  facts: RequestFacts;
  ir: IRRequest;
  format: InboundFormat;
  inbound: InboundCodec<unknown>;
  /** admitted candidates, in the order to try them */
  candidates: readonly Candidate[];
  /** the client asked for service metadata in the answer */
  wantsMetadata: boolean;
  /** session affinity is per workspace: two teams may pick the same session id */
  sessionKey: string | undefined;
  idHeader: Record<string, string>;
  /** the prompt's token count for a stream that announces it (InboundCodec.announcesPromptTokens), else null */
  promptTokens: Promise<number> | null;
  /** a Responses answer to keep for later item_reference / previous_response_id; null: keep nothing */
  memory: ResponseMemory | null;
  /** the body's top-level fields the inbound format does not name, for an upstream of that format (passthrough.ts) */
  unknownFields: Readonly<Record<string, unknown>>;
}>;

/** What routing needs beyond the request's own models and preferences. */
export type RouteRequest = Pick<PlanInput, "models" | "requested" | "prefs" | "sentParameters" | "estimatedPromptTokens" | "requestedOutputTokens" | "modalities" | "sessionEndpoint">;

/**
 * Routes and admits: the candidates that may serve (filtered and ordered by the router), the
 * key's rate limits, and the reservation of the worst case against the key's spending limit.
 * Shared by every operation; what it holds is given back when the request's record is committed.
 */
export async function admittedCandidates(
  deps: AppContext,
  principal: Principal,
  route: RouteRequest,
  admission: Pick<IRRequest, "messages" | "tools" | "maxOutputTokens">,
  id: string,
): Promise<{ candidates: Candidate[]; reservationId: string | null; rateLimit: RateTicket | null }> {
  const { router } = deps;
  const planned = planRoute({
    ...route,
    credentials: await credentialResolver(deps, principal),
    workspaceSort: principal.workspace.defaultProviderSort,
    stats: (endpoint) => router.stats.stats(endpoint),
    health: (endpoint) => router.circuits.health(endpoint),
    random: router.random,
  });
  const now = deps.clock();
  const rateLimit = await admitRate(deps.shared.rates, principal, id, estimatePromptTokens(admission), now, deps.reservationLease.leaseMs);
  try {
    return { ...(await admit(deps.store, principal, planned, admission, id, now, deps.reservationLease)), rateLimit };
  } catch (err) {
    // refused by the spending limit: nothing went upstream, so no slot stays held and no tokens count
    if (rateLimit) await deps.shared.rates.release(rateRelease(rateLimit, null, deps.clock()));
    throw err;
  }
}

/** Errors before any upstream call carry the generation id too. */
export function withIdHeader(err: unknown, idHeader: Record<string, string>): unknown {
  return err instanceof GatewayError ? new GatewayError(err.status, err.message, err.metadata, { ...err.headers, ...idHeader }) : err;
}

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
    const { body, memory } =
      input.format === "openai-responses" ? await resolveResponsesState(deps, principal.workspace.id, input.body as Record<string, unknown>, startedAt) : { body: input.body, memory: null };
    const { ir, presetId } = await decodeWithPreset(deps, principal, input.format, body, input.request.headers);
    const requested = requestedModel(ir, principal);
    const sessionKey = ir.sessionId ? `${principal.workspace.id}\u0000${ir.sessionId}` : undefined;
    const { candidates, reservationId, rateLimit } = await admittedCandidates(
      deps,
      principal,
      {
        models: requestedModels(deps.catalog, requested, ir.models),
        requested,
        prefs: (ir.provider ?? {}) as ProviderPreferences,
        sentParameters: ir.sentParameters,
        estimatedPromptTokens: estimatePromptTokens(ir),
        requestedOutputTokens: ir.maxOutputTokens ?? 0,
        modalities: requiredModalities(ir),
        sessionEndpoint: sessionKey ? deps.router.sessions.get(sessionKey) : undefined,
      },
      ir,
      input.generationId,
    );
    deps.telemetry.claim(input.request);
    const trace = (ir.trace as Record<string, unknown> | undefined) ?? null;
    const pendingTargets = forwardTargets(deps.destinationTargets, principal.workspace);
    const targets = pendingTargets ? await pendingTargets : NO_TARGETS;
    return {
      facts: {
        id: input.generationId,
        route: new URL(input.request.url).pathname,
        startedAt,
        principal,
        headers: input.request.headers,
        apiType: "completions",
        requestedModel: requested,
        streamed: ir.stream,
        sessionId: ir.sessionId ?? null,
        externalUser: ir.user ?? null,
        presetId,
        trace,
        reservationId,
        rateLimit,
        observe: observePlan(principal.workspace, principal.key, { id: input.generationId, sessionId: ir.sessionId ?? null, trace }, OPERATION_OF_FORMAT[input.format], () =>
          completionInput(input.format, input.body),
          targets,
        ),
      },
      ir,
      format: input.format,
      inbound: inboundCodecs[input.format],
      candidates,
      wantsMetadata: wantsServiceMetadata(input.request.headers),
      sessionKey,
      idHeader,
      promptTokens: ir.stream && inboundCodecs[input.format].announcesPromptTokens ? countBesideUpstream(ir) : null,
      memory,
      unknownFields: inboundCodecs[input.format].unknownFields(input.body),
    };
  } catch (err) {
    throw withIdHeader(err, idHeader);
  }
}
