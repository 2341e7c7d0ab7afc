import type { MediaModelsConfig } from "../config-media-schema";
import type { ProviderConfig } from "../config-schema";

/**
 * The media models the gateway offers without configuration once their provider's key is in the
 * environment (and the default catalog is on): OpenAI's image, speech and transcription models
 * and Cohere's rerank models, at their published prices (openai.com/api/pricing,
 * cohere.com/pricing). gateway.yaml replaces a model of the same id, and a provider of the same
 * slug and api.
 */
export type DefaultMediaProvider = ProviderConfig & { env: string };

const OPENAI = "https://api.openai.com/v1";

export const DEFAULT_MEDIA_PROVIDERS: readonly DefaultMediaProvider[] = [
  { slug: "openai-images", name: "OpenAI", api: "openai-images", base_url: OPENAI, env: "OPENAI_API_KEY" },
  { slug: "openai-audio", name: "OpenAI", api: "openai-audio", base_url: OPENAI, env: "OPENAI_API_KEY" },
  { slug: "cohere", name: "Cohere", api: "cohere-rerank", base_url: "https://api.cohere.com", env: "COHERE_API_KEY" },
];

const GPT_IMAGE_SIZES = ["1024x1024", "1536x1024", "1024x1536"];
const TTS_VOICES = ["alloy", "ash", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer"];
const TTS_FORMATS = ["mp3", "opus", "aac", "flac", "wav", "pcm"] as const;
const WHISPER_FORMATS = ["flac", "mp3", "mp4", "mpeg", "mpga", "m4a", "ogg", "wav", "webm"];
const rerank = (model: string, name: string) => ({
  id: `cohere/${model}`,
  name,
  endpoints: [{ provider: "cohere", model, max_documents: 1000, pricing: { per_search: "0.002" } }],
});

export const DEFAULT_MEDIA_MODELS: MediaModelsConfig = {
  imageModels: [
    {
      id: "openai/gpt-image-1",
      name: "OpenAI: GPT Image 1",
      endpoints: [
        {
          provider: "openai-images",
          model: "gpt-image-1",
          supported_sizes: GPT_IMAGE_SIZES,
          supported_qualities: ["low", "medium", "high"],
          supported_output_formats: ["png", "jpeg", "webp"],
          max_images: 10,
          background: true,
          seed: false,
          allowed_passthrough_parameters: ["moderation"],
          pricing: {
            per_image: {
              "1024x1024/low": "0.011",
              "1024x1024/medium": "0.042",
              "1024x1024/high": "0.167",
              "1536x1024/low": "0.016",
              "1536x1024/medium": "0.063",
              "1536x1024/high": "0.25",
              "1024x1536/low": "0.016",
              "1024x1536/medium": "0.063",
              "1024x1536/high": "0.25",
            },
          },
        },
      ],
    },
    {
      id: "openai/dall-e-3",
      name: "OpenAI: DALL·E 3",
      endpoints: [
        {
          provider: "openai-images",
          model: "dall-e-3",
          supported_sizes: ["1024x1024", "1792x1024", "1024x1792"],
          supported_qualities: ["standard", "hd"],
          max_images: 1,
          pricing: {
            per_image: {
              "1024x1024/standard": "0.04",
              "1024x1024/hd": "0.08",
              "1792x1024/standard": "0.08",
              "1792x1024/hd": "0.12",
              "1024x1792/standard": "0.08",
              "1024x1792/hd": "0.12",
            },
          },
        },
      ],
    },
  ],
  speechModels: [
    {
      id: "openai/tts-1",
      name: "OpenAI: TTS 1",
      endpoints: [
        {
          provider: "openai-audio",
          model: "tts-1",
          voices: TTS_VOICES,
          response_formats: [...TTS_FORMATS],
          max_input_chars: 4096,
          speed: true,
          pricing: { per_million_characters: "15" },
        },
      ],
    },
    {
      id: "openai/tts-1-hd",
      name: "OpenAI: TTS 1 HD",
      endpoints: [
        {
          provider: "openai-audio",
          model: "tts-1-hd",
          voices: TTS_VOICES,
          response_formats: [...TTS_FORMATS],
          max_input_chars: 4096,
          speed: true,
          pricing: { per_million_characters: "30" },
        },
      ],
    },
  ],
  transcriptionModels: [
    {
      id: "openai/whisper-1",
      name: "OpenAI: Whisper",
      endpoints: [
        {
          provider: "openai-audio",
          model: "whisper-1",
          input_formats: WHISPER_FORMATS,
          max_file_mb: 25,
          max_duration_seconds: 1500,
          pricing: { per_minute: "0.006" },
        },
      ],
    },
  ],
  rerankModels: [
    rerank("rerank-v3.5", "Cohere: Rerank 3.5"),
    rerank("rerank-english-v3.0", "Cohere: Rerank English 3"),
    rerank("rerank-multilingual-v3.0", "Cohere: Rerank Multilingual 3"),
  ],
};
