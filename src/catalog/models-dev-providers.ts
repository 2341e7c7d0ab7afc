import type { ApiKindName } from "../config-schema";

/**
 * How a models.dev provider becomes a gateway provider: our slug (OpenRouter's where it has
 * one), the display name (OpenRouter's ProviderName where it has one), the API kind, and the base
 * URL when models.dev gives none or gives one without its version segment. Providers that take a
 * single key from one environment variable are mapped, Azure too, whose base URL names its resource
 * variable (`env` says which of models.dev's variables is the key), those whose API reads its
 * credentials itself (Bedrock: the AWS_* variables; `env` names the variable shown for them), and
 * Vertex AI, which names its key file, project and location (`env`, `vertexEnv`: the variables
 * models.dev lists for it). The others (Cloudflare: several credentials; Copilot, GitHub Models:
 * tokens that CI machines carry for other purposes; local servers; regional duplicates sharing one
 * variable) are left out. Used by scripts/generate-catalog.ts only.
 */
export type ProviderMapping = {
  slug: string;
  name: string;
  api: ApiKindName;
  baseUrl?: string;
  router?: boolean;
  /** the variable holding the key (api vertex: the key file's path), where models.dev lists several or another */
  env?: string;
  vertexEnv?: { project: string; location: string };
};

/** Vertex AI serves Google's and Anthropic's models (two models.dev providers) through one provider. */
const GOOGLE_VERTEX: ProviderMapping = {
  slug: "google-vertex",
  name: "Google",
  api: "vertex",
  // the global endpoint; GOOGLE_VERTEX_LOCATION's own replaces it (build-catalog.ts)
  baseUrl: "https://aiplatform.googleapis.com/v1",
  env: "GOOGLE_APPLICATION_CREDENTIALS",
  vertexEnv: { project: "GOOGLE_VERTEX_PROJECT", location: "GOOGLE_VERTEX_LOCATION" },
};

export const MODELS_DEV_PROVIDERS: Record<string, ProviderMapping> = {
  openai: { slug: "openai", name: "OpenAI", api: "openai-responses", baseUrl: "https://api.openai.com/v1" },
  anthropic: { slug: "anthropic", name: "Anthropic", api: "anthropic-messages", baseUrl: "https://api.anthropic.com/v1" },
  google: { slug: "google-ai-studio", name: "Google AI Studio", api: "gemini", baseUrl: "https://generativelanguage.googleapis.com/v1beta" },
  "google-vertex": GOOGLE_VERTEX,
  "google-vertex-anthropic": GOOGLE_VERTEX,
  xai: { slug: "xai", name: "xAI", api: "openai-chat", baseUrl: "https://api.x.ai/v1" },
  // the endpoint's model is the deployment name: the catalog assumes deployments named after their models
  azure: { slug: "azure", name: "Azure", api: "azure-openai", baseUrl: "https://{AZURE_RESOURCE_NAME}.openai.azure.com", env: "AZURE_API_KEY" },
  groq: { slug: "groq", name: "Groq", api: "openai-chat", baseUrl: "https://api.groq.com/openai/v1" },
  deepseek: { slug: "deepseek", name: "DeepSeek", api: "openai-chat", baseUrl: "https://api.deepseek.com/v1" },
  mistral: { slug: "mistral", name: "Mistral", api: "openai-chat", baseUrl: "https://api.mistral.ai/v1" },
  togetherai: { slug: "together", name: "Together", api: "openai-chat", baseUrl: "https://api.together.xyz/v1" },
  "fireworks-ai": { slug: "fireworks", name: "Fireworks", api: "openai-chat" },
  cerebras: { slug: "cerebras", name: "Cerebras", api: "openai-chat", baseUrl: "https://api.cerebras.ai/v1" },
  deepinfra: { slug: "deepinfra", name: "DeepInfra", api: "openai-chat", baseUrl: "https://api.deepinfra.com/v1/openai" },
  perplexity: { slug: "perplexity", name: "Perplexity", api: "openai-chat", baseUrl: "https://api.perplexity.ai" },
  moonshotai: { slug: "moonshotai", name: "Moonshot AI", api: "openai-chat" },
  zai: { slug: "z-ai", name: "Z.AI", api: "openai-chat" },
  alibaba: { slug: "alibaba", name: "Alibaba", api: "openai-chat" },
  baseten: { slug: "baseten", name: "BaseTen", api: "openai-chat" },
  chutes: { slug: "chutes", name: "Chutes", api: "openai-chat" },
  huggingface: { slug: "huggingface", name: "Hugging Face", api: "openai-chat" },
  inception: { slug: "inception", name: "Inception", api: "openai-chat" },
  inference: { slug: "inference-net", name: "InferenceNet", api: "openai-chat" },
  llama: { slug: "meta", name: "Meta", api: "openai-chat" },
  morph: { slug: "morph", name: "Morph", api: "openai-chat" },
  nvidia: { slug: "nvidia", name: "Nvidia", api: "openai-chat" },
  venice: { slug: "venice", name: "Venice", api: "openai-chat" },
  wandb: { slug: "wandb", name: "WandB", api: "openai-chat" },
  openrouter: { slug: "openrouter", name: "OpenRouter", api: "openai-chat", router: true },
  requesty: { slug: "requesty", name: "Requesty", api: "openai-chat", baseUrl: "https://router.requesty.ai/v1", router: true },
  vercel: { slug: "vercel", name: "Vercel AI Gateway", api: "openai-chat", baseUrl: "https://ai-gateway.vercel.sh/v1", router: true },
  fastrouter: { slug: "fastrouter", name: "FastRouter", api: "openai-chat", router: true },
  "amazon-bedrock": {
    slug: "amazon-bedrock",
    name: "Amazon Bedrock",
    api: "bedrock",
    baseUrl: "https://bedrock-runtime.{region}.amazonaws.com",
    env: "AWS_BEARER_TOKEN_BEDROCK",
  },
};

/** The model author a first-party provider's models belong to (`openai` serves `openai/...`). */
export const FIRST_PARTY_AUTHOR: Record<string, string> = {
  openai: "openai",
  anthropic: "anthropic",
  google: "google",
  xai: "x-ai",
  deepseek: "deepseek",
  mistral: "mistralai",
  moonshotai: "moonshotai",
  zai: "z-ai",
  alibaba: "qwen",
  perplexity: "perplexity",
  inception: "inception",
  morph: "morph",
  llama: "meta-llama",
};

/**
 * Embedding models, which models.dev does not list: the generator adds them with the providers'
 * published prices (USD per 1M input tokens) so that /embeddings has a default catalog too.
 */
export const EMBEDDING_MODELS: Array<{
  provider: string;
  model: string;
  name: string;
  contextLength: number;
  perMillion: number;
  created: string;
  dimensions: number;
}> = [
  {
    provider: "openai",
    model: "text-embedding-3-small",
    name: "Text Embedding 3 Small",
    contextLength: 8191,
    perMillion: 0.02,
    created: "2024-01-25",
    dimensions: 1536,
  },
  {
    provider: "openai",
    model: "text-embedding-3-large",
    name: "Text Embedding 3 Large",
    contextLength: 8191,
    perMillion: 0.13,
    created: "2024-01-25",
    dimensions: 3072,
  },
  {
    provider: "openai",
    model: "text-embedding-ada-002",
    name: "Text Embedding Ada 002",
    contextLength: 8191,
    perMillion: 0.1,
    created: "2022-12-15",
    dimensions: 1536,
  },
  { provider: "mistral", model: "mistral-embed", name: "Mistral Embed", contextLength: 8192, perMillion: 0.1, created: "2023-12-11", dimensions: 1024 },
];
