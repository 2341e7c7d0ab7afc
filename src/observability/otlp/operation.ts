import type { ObservedGeneration } from "../contract";

/**
 * How each kind of generation is shown: its span's default name, semconv's operation name, and
 * whether it has an output. Chat-like operations are OpenRouter's `LLM Generation`; embeddings
 * carry no output (`gen_ai.operation.name=embeddings`); a video is content generation whose
 * output is a video.
 */
export type OperationShape = Readonly<{ spanName: string; semconvOperation: string; hasOutput: boolean; outputType?: string; spanType: string }>;

const CHAT: OperationShape = { spanName: "LLM Generation", semconvOperation: "chat", hasOutput: true, outputType: "text", spanType: "generation" };
const EMBEDDINGS: OperationShape = { spanName: "Embeddings", semconvOperation: "embeddings", hasOutput: false, spanType: "embedding" };
const VIDEO: OperationShape = {
  spanName: "Video Generation",
  semconvOperation: "generate_content",
  hasOutput: true,
  outputType: "video",
  spanType: "generation",
};

/** The media operations, by their api_type: content generation (an image, speech) or text out of audio or a ranking. */
const MEDIA: Readonly<Record<string, OperationShape>> = {
  image: { spanName: "Image Generation", semconvOperation: "generate_content", hasOutput: true, outputType: "image", spanType: "generation" },
  tts: { spanName: "Speech Generation", semconvOperation: "generate_content", hasOutput: true, outputType: "speech", spanType: "generation" },
  stt: { spanName: "Transcription", semconvOperation: "generate_content", hasOutput: true, outputType: "text", spanType: "generation" },
  rerank: { spanName: "Rerank", semconvOperation: "rerank", hasOutput: true, outputType: "json", spanType: "generation" },
};

export function operationShapeOf(g: ObservedGeneration): OperationShape {
  if (g.operation === "embeddings") return EMBEDDINGS;
  if (g.operation === "video") return VIDEO;
  return MEDIA[g.operation] ?? CHAT;
}
