import type { GuardrailRecord, GuardrailRules } from "../../store/store";
import type { BuiltinSlug } from "./builtins";

/** A guardrail's policy fields as the API names them (OpenRouter's Guardrail object); absent or null: not set. */

export type FilterAction = "redact" | "block" | "flag";
export type ScanScope = "user_only" | "all_messages";

export type BuiltinEntry = { slug: BuiltinSlug; action: FilterAction; scan_scope?: ScanScope };
export type CustomEntry = { pattern: string; action: FilterAction; label: string | null };

export type ZdrVendor = "anthropic" | "openai" | "google" | "xai" | "other";
export const ZDR_VENDORS: readonly ZdrVendor[] = ["anthropic", "openai", "google", "xai", "other"];

export type Rules = {
  allowed_models?: string[] | null;
  ignored_models?: string[] | null;
  allowed_providers?: string[] | null;
  ignored_providers?: string[] | null;
  enforce_zdr?: boolean | null;
  enforce_zdr_anthropic?: boolean | null;
  enforce_zdr_openai?: boolean | null;
  enforce_zdr_google?: boolean | null;
  enforce_zdr_xai?: boolean | null;
  enforce_zdr_other?: boolean | null;
  enable_free_model_publication?: boolean | null;
  enable_free_model_training?: boolean | null;
  enable_paid_model_training?: boolean | null;
  allowed_data_regions?: Array<"global" | "europe" | "us"> | null;
  content_filter_builtins?: BuiltinEntry[] | null;
  content_filters?: CustomEntry[] | null;
};

/** The rule fields, in the order the API document lists them. */
export const RULE_KEYS = [
  "allowed_models",
  "ignored_models",
  "allowed_providers",
  "ignored_providers",
  "enforce_zdr",
  "enforce_zdr_anthropic",
  "enforce_zdr_openai",
  "enforce_zdr_google",
  "enforce_zdr_xai",
  "enforce_zdr_other",
  "enable_free_model_publication",
  "enable_free_model_training",
  "enable_paid_model_training",
  "allowed_data_regions",
  "content_filter_builtins",
  "content_filters",
] as const satisfies ReadonlyArray<keyof Rules>;

export const rulesOf = (g: GuardrailRecord): Rules => g.rules as Rules;

export const asStoredRules = (rules: Rules): GuardrailRules => rules as GuardrailRules;

/**
 * The ZDR vendor group of a model: its author, the part of its id before "/" (OpenRouter's
 * enforce_zdr_<vendor> fields); authors outside the four named are "other".
 */
export function vendorGroup(modelId: string): ZdrVendor {
  const author = modelId.slice(0, modelId.indexOf("/")).toLowerCase();
  if (author === "anthropic" || author === "openai" || author === "google") return author;
  if (author === "x-ai" || author === "xai") return "xai";
  return "other";
}
