import type { AppContext } from "../app-context";
import type { MediaKind } from "../config-media-schema";
import { mediaCatalogOf } from "../media/build-media-catalog";
import type { MediaEndpoint, MediaModel } from "../media/media-catalog";
import { unionOf } from "../media/request-fields";
import { listable } from "../modules/models/service";

/** What the Playground sends a model: a chat prompt, or one of the four media operations. */
export type PlaygroundKind = "chat" | MediaKind;

/**
 * A model the Playground offers, with the choices its form shows: the values its endpoints take
 * (their union, the first endpoint's first), as the operation's 400s list them.
 */
export type PlaygroundModel = {
  id: string;
  name: string;
  kind: PlaygroundKind;
  /** a provider of it has a key (the gateway's own, or an enabled BYOK credential): a request can be served */
  available: boolean;
  sizes?: string[];
  qualities?: string[];
  max_images?: number;
  voices?: string[];
  response_formats?: string[];
  input_formats?: string[];
  max_documents?: number;
};

/** Formats an <audio> element plays, most compact first (pcm has no header: it cannot be played as is). */
const PLAYABLE = ["mp3", "wav", "opus", "aac", "flac"];

function mediaOptions(model: MediaModel): Partial<PlaygroundModel> {
  const e = model.endpoints;
  const all = (pick: (e: MediaEndpoint) => readonly string[] | null | false) => unionOf(e, (x) => pick(x) || []);
  const kind = e[0]?.kind;
  if (kind === "image")
    return {
      sizes: all((x) => x.kind === "image" && x.sizes),
      qualities: all((x) => x.kind === "image" && x.qualities),
      max_images: Math.max(...e.map((x) => (x.kind === "image" ? x.maxImages : 1))),
    };
  if (kind === "speech") {
    const formats = all((x) => x.kind === "speech" && x.responseFormats);
    return { voices: all((x) => x.kind === "speech" && x.voices), response_formats: PLAYABLE.filter((f) => formats.includes(f)) };
  }
  if (kind === "transcription") return { input_formats: all((x) => x.kind === "transcription" && x.inputFormats) };
  if (kind === "rerank") return { max_documents: Math.max(...e.map((x) => (x.kind === "rerank" ? x.maxDocuments : 0))) };
  return {};
}

/** Every chat model GET /api/v1/models lists, then the image, speech, transcription and rerank models, each with whether it can be served. */
export async function playgroundModels(ctx: AppContext): Promise<PlaygroundModel[]> {
  const listed = await listable(ctx);
  const byok = new Set((await ctx.store.byok.list({}, 0, 100_000)).filter((c) => !c.disabled).map((c) => c.provider));
  const chat: PlaygroundModel[] = ctx.catalog
    .models()
    .filter((m) => m.endpoints.length > 0)
    .map((m) => ({ id: m.id, name: m.name, kind: "chat", available: listed(m) }));
  const catalog = mediaCatalogOf(ctx.config);
  const media = (["image", "speech", "transcription", "rerank"] as const).flatMap((kind) =>
    catalog.models(kind).map(
      (m): PlaygroundModel => ({
        id: m.id,
        name: m.name,
        kind,
        available: m.endpoints.some((e) => e.provider.apiKey !== undefined || byok.has(e.provider.slug)),
        ...mediaOptions(m),
      }),
    ),
  );
  return [...chat, ...media];
}
