/** What /console/api answers, as the pages read it. */

export type Me = {
  user_id: string;
  email: string;
  role: "owner" | "admin" | "member";
  manages: boolean;
  csrf_token: string;
  workspaces: Array<{ id: string; name: string; slug: string; is_default: boolean }>;
};

// the overview's shape is the server's own (a type import: nothing of the server is bundled)
export type { Figures, Overview } from "../overview";

export type RateLimit = { rpm: number | null; tpm: number | null; concurrency: number | null };

export type Key = {
  hash: string;
  name: string;
  label: string;
  disabled: boolean;
  limit: number | null;
  limit_remaining: number | null;
  limit_reset: "daily" | "weekly" | "monthly" | null;
  include_byok_in_limit: boolean;
  rate_limit: RateLimit;
  alert_thresholds: number[] | null;
  usage: number;
  usage_daily: number;
  usage_weekly: number;
  usage_monthly: number;
  created_at: string;
  expires_at: string | null;
  creator_user_id: string | null;
  workspace_id: string;
  /** the console's own: a management key (not for inference), and whether its limit still takes a typical request */
  is_management: boolean;
  typical_request_usd: number | null;
  limit_reached: boolean;
  /** the guardrail assigned to the key, if any */
  guardrail: { id: string; name: string } | null;
};

export type Generation = {
  id: string;
  key_name: string | null;
  workspace_name: string | null;
  created_at: string;
  model: string;
  provider_name: string | null;
  api_type: string;
  workspace_id: string;
  streamed: boolean;
  cancelled: boolean;
  finish_reason: string | null;
  latency: number | null;
  time_to_first_token: number | null;
  tokens_prompt: number | null;
  tokens_completion: number | null;
  /** images an image generation returned */
  num_media_completion: number | null;
  total_cost: number;
  is_byok: boolean;
  session_id: string | null;
  /** the response cache's verdict (hit: served from the cache, nothing upstream); null while the cache is off */
  cache_status: "hit" | "miss" | "bypass" | null;
  response_cache_source_id?: string | null;
  /** the guardrail content filters (action flag) that matched the request, by name; empty when none did */
  guardrail_flags: string[];
  provider_responses: Array<{
    status: number | null;
    endpoint_id: string | null;
    model_permaslug: string | null;
    provider_name: string | null;
    latency: number | null;
  }>;
};

export type GenerationDetail = Generation & {
  key_hash: string;
  /** whether I/O logging kept its prompt and completion (read them at .../content) */
  content_kept: boolean;
  error_message: string | null;
  feedback: Array<{ category: string; comment: string | null; created_at: string }>;
};

export type { GenerationContentOut } from "../../modules/generations/model";
// the observability shapes are the server's own (type imports: nothing of the server is bundled)
export type { DestinationDataOut as Destination } from "../../modules/observability/model";
// the Guardrails and Response cache pages read the server's own shapes (type imports: nothing of the server is bundled)
export type { ConsoleCache } from "../api/cache";
export type { ConsoleGuardrail } from "../api/guardrails";
export type { ConfigKeyField, DestinationTypeForm } from "../destination-types";
// the refusal log's rows are the server's own (a type import: nothing of the server is bundled)
export type { RefusalOut as Refusal } from "../refusal-list";
