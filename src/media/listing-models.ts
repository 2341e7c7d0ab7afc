import { nanosToUsd } from "../billing/money";
import type { CatalogEndpoint, CatalogModel, PriceTable, PricingStrings } from "../catalog/types";
import { type MediaConfig, mediaCatalogOf } from "./build-media-catalog";
import type { MediaEndpoint, MediaModel } from "./media-catalog";
import { unionOf } from "./request-fields";

/**
 * Speech, transcription and rerank models as GET /api/v1/models lists them (only when
 * output_modalities names their kind, or all): text → speech with its voices, audio →
 * transcription, text → rerank. Their prices in the listing's strings: speech `prompt` is USD per
 * character, transcription `audio` USD per second, rerank `request` USD per search. These views
 * are for the listing only: nothing routes chat to them. Image models have listings of their own.
 */

const NO_PRICES: PriceTable = {
  prompt: 0,
  completion: 0,
  request: 0,
  image: 0,
  inputCacheRead: 0,
  inputCacheWrite: 0,
  inputCacheWrite1h: 0,
  webSearch: 0,
  internalReasoning: 0,
};

type Listing = { input: string; output: string; parameters: string[]; pricing: (e: never) => PricingStrings };

const LISTINGS = {
  speech: {
    input: "text",
    output: "speech",
    parameters: ["voice", "response_format", "speed"],
    pricing: (e: MediaModelEndpoint<"speech">) => ({ prompt: String(nanosToUsd(e.nanosPerCharacter)) }),
  },
  transcription: {
    input: "audio",
    output: "transcription",
    parameters: ["language", "response_format", "temperature", "timestamp_granularities"],
    pricing: (e: MediaModelEndpoint<"transcription">) => ({ audio: e.pricePerSecondUsd }),
  },
  rerank: {
    input: "text",
    output: "rerank",
    parameters: ["top_n"],
    pricing: (e: MediaModelEndpoint<"rerank">) => (e.perSearchString === null ? {} : { request: e.perSearchString }),
  },
} satisfies Record<string, Listing>;

type MediaModelEndpoint<K extends string> = Extract<MediaEndpoint, { kind: K }>;

function endpointView(e: MediaEndpoint, listing: Listing): CatalogEndpoint {
  const p = e.provider;
  return {
    id: e.id,
    modelId: e.modelId,
    // a listing view: its api is never looked up, since nothing routes chat to it
    provider: {
      slug: p.slug,
      name: p.name,
      api: p.api as never,
      baseUrl: p.baseUrl,
      apiKey: p.apiKey,
      headers: { ...p.headers },
      zdr: false,
      dataCollection: "allow",
      ...(p.envVar ? { envVar: p.envVar } : {}),
    },
    upstreamModel: e.upstreamModel,
    pricing: NO_PRICES,
    pricingStrings: { prompt: "0", completion: "0", ...listing.pricing(e as never) },
    contextLength: 0,
    maxCompletionTokens: null,
    quantization: null,
    supportedParameters: listing.parameters,
  };
}

function modelView(m: MediaModel, listing: Listing): CatalogModel {
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    contextLength: 0,
    inputModalities: [listing.input],
    outputModalities: [listing.output],
    endpoints: m.endpoints.map((e) => endpointView(e, listing)),
    created: m.created,
    ...(listing.output === "speech" ? { supportedVoices: unionOf(m.endpoints as MediaModelEndpoint<"speech">[], (e) => e.voices) } : {}),
  };
}

/** The listing's views of the speech, transcription and rerank models. */
export function mediaListingModels(config: MediaConfig): CatalogModel[] {
  const catalog = mediaCatalogOf(config);
  return (Object.keys(LISTINGS) as Array<keyof typeof LISTINGS>).flatMap((kind) => catalog.models(kind).map((m) => modelView(m as MediaModel, LISTINGS[kind])));
}
