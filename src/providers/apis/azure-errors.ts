import { upstreamErrorMessage } from "../../formats/error-message";

/**
 * Azure OpenAI refuses a prompt its content filter flags with 400 and `error.code: "content_filter"`,
 * the categories under `error.innererror.content_filter_result` (`{violence: {filtered: true,
 * severity: "medium"}, ...}`). The client's message says so first, with the categories that
 * filtered, then Azure's own words.
 * https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter
 */
type AzureError = { code?: unknown; message?: unknown; innererror?: { code?: unknown; content_filter_result?: unknown } | null };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The categories (`violence`, `jailbreak`, ...) whose result says `filtered: true`. */
function filteredCategories(result: unknown): string[] {
  if (!isObject(result)) return [];
  return Object.entries(result).flatMap(([category, verdict]) => (isObject(verdict) && verdict.filtered === true ? [category] : []));
}

export function azureErrorMessage(body: unknown): string | undefined {
  const error = isObject(body) && isObject(body.error) ? (body.error as AzureError) : undefined;
  if (error?.code !== "content_filter") return upstreamErrorMessage(body);
  const categories = filteredCategories(error.innererror?.content_filter_result);
  const why = categories.length > 0 ? ` (${categories.join(", ")})` : "";
  const said = typeof error.message === "string" ? `: ${error.message}` : "";
  return `Azure OpenAI's content filter refused the prompt${why}${said}`;
}
