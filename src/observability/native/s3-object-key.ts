/**
 * Where the S3 destination puts a trace: `pathTemplate` rendered, then `/{traceId}-{timestamp}.json`
 * (as OpenRouter's S3 destination names its objects). `{date}` is the UTC day `YYYY-MM-DD` and `{timestamp}` the generation's
 * start in epoch milliseconds, so a retry writes the same key (overwrite, never a duplicate).
 */

/** A variable's value as a safe key segment: letters, digits, `.`, `_`, `-`; anything else is `_`. */
const segment = (value: string) => value.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+$/, "_");

/** The prefix may hold several segments; each is made safe and `.`/`..`/empty ones are dropped. */
const segments = (value: string) =>
  value
    .split("/")
    .filter((part) => part !== "" && part !== "." && part !== "..")
    .map(segment)
    .join("/");

export type ObjectKeyVars = { prefix: string; startedAt: number; apiKeyName: string | null };

export function renderPathTemplate(template: string, vars: ObjectKeyVars): string {
  const date = new Date(vars.startedAt).toISOString().slice(0, 10);
  const [year, month, day] = date.split("-") as [string, string, string];
  const values: Record<string, string> = {
    prefix: segments(vars.prefix),
    date,
    year,
    month,
    day,
    apiKeyName: segment(vars.apiKeyName ?? "unnamed-key"),
  };
  // an unknown `{name}` stays as written (minus its braces' unsafe characters), so a typo shows in the key
  const rendered = template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? segment(whole));
  return segments(rendered);
}

export function traceObjectKey(template: string, vars: ObjectKeyVars, traceId: string): string {
  const path = renderPathTemplate(template, vars);
  const file = `${segment(traceId)}-${Math.floor(vars.startedAt)}.json`;
  return path === "" ? file : `${path}/${file}`;
}

/** The connection test's object, beside the traces. */
export const connectionTestKey = (prefix: string) => {
  const path = segments(prefix);
  return path === "" ? ".connection-test.json" : `${path}/.connection-test.json`;
};
