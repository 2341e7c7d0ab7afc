/**
 * docs/reference/configuration.md from what defines the configuration: every gateway.yaml key from
 * the TypeBox schema (type, constraints, format hint), what it does (config-descriptions.ts), its
 * default as the loader writes it (`file.section?.key ?? default` in src/config*.ts; the catalogs'
 * defaults through OTHER_DEFAULTS), and the environment variables that set it (their descriptions
 * name the key); then every variable the gateway reads (config-variables.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TSchema } from "@sinclair/typebox";
import { GatewayFileSchema } from "../../src/config-schema";
import { KEY_DESCRIPTIONS, OTHER_DEFAULTS } from "./config-descriptions";
import { type EnvVariable, gatewayVariables } from "./config-variables";

export { usageVariables } from "./config-variables";

const ROOT = join(import.meta.dir, "../..");
const LOADER_FILES = ["src/config.ts", "src/config-sections.ts", "src/config-identity.ts", "src/config-media-checks.ts"];
/** the loader's names for sections it reads through a parameter rather than a `const x = file.y` */
const PARAMETER_SECTIONS: Record<string, string> = { oidc: "auth.oidc" };

/** A key of the schema: its path, type and the schema's own description (the "expected …" text of config errors, a format hint). */
type Row = { key: string; type: string; description: string };

/** One row per key, nested objects and list items (`providers[].slug`) spelled as paths. */
export function schemaRows(schema: TSchema, prefix = ""): Row[] {
  if (schema.type !== "object" || !schema.properties) return [];
  return Object.entries(schema.properties as Record<string, TSchema>).flatMap(([name, child]) => {
    const key = prefix ? `${prefix}.${name}` : name;
    const row = { key, type: typeOf(child), description: child.description ?? "" };
    const item = child.type === "array" ? (child.items as TSchema) : undefined;
    const nested = item ? schemaRows(item, `${key}[]`) : schemaRows(child, key);
    return [row, ...nested];
  });
}

function constraints(s: TSchema): string {
  const parts: string[] = [];
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) parts.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined) parts.push(`length ≥ ${s.minLength}`);
  if (s.maxLength !== undefined) parts.push(`length ≤ ${s.maxLength}`);
  if (s.minItems !== undefined) parts.push(`items ≥ ${s.minItems}`);
  if (s.pattern !== undefined) parts.push(`pattern \`${s.pattern}\``);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

export function typeOf(s: TSchema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return [...new Set((s.anyOf as TSchema[]).map(typeOf))].join(" \\| ");
  if (s.type === "array") return `list of ${typeOf(s.items as TSchema)}${constraints(s)}`;
  if (s.type === "object") {
    const values = s.patternProperties ? Object.values(s.patternProperties as Record<string, TSchema>)[0] : s.additionalProperties;
    if (!s.properties && values && typeof values === "object") return `map of ${typeOf(values as TSchema)}`;
    return "object";
  }
  return `${s.type ?? "any"}${constraints(s)}`;
}

/** The expression after `??` up to the end of its argument (brackets balanced). */
function expressionAt(text: string, from: number): string {
  let depth = 0;
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      if (depth === 0) break;
      depth--;
    } else if ((c === "," || c === ";" || c === "\n") && depth === 0) break;
  }
  return text.slice(from, i).trim();
}

/** `file.routing?.circuit_failures ?? 5` and `const jobs = file.jobs ?? {}; jobs.lease_seconds ?? 60`, as key → default. */
export function loaderDefaults(sources: string[], constants: Map<string, string> = new Map()): Map<string, string> {
  const text = sources.join("\n");
  const sections = new Map<string, string>(Object.entries(PARAMETER_SECTIONS));
  for (const m of text.matchAll(/const (\w+) = file\.([\w?.]+)/g)) sections.set(m[1]!, m[2]!.replaceAll("?", ""));
  const defaults = new Map<string, string>();
  for (const m of text.matchAll(/\b(\w+)\??\.([\w?.]+) \?\? /g)) {
    const base = m[1] === "file" ? "" : sections.get(m[1]!);
    if (base === undefined) continue;
    const key = [base, m[2]!.replaceAll("?", "")].filter(Boolean).join(".");
    const raw = expressionAt(text, m.index! + m[0].length);
    // a section's fallback object is no default of its own
    if (raw === "{}" || raw === "[]" || defaults.has(key)) continue;
    defaults.set(key, resolved(raw, constants).replace(/(\d)_(?=\d)/g, "$1"));
  }
  return defaults;
}

/** `NAME` or `NAME.field` of a constant, as its source writes it; anything else as written. */
function resolved(expression: string, constants: Map<string, string>): string {
  const m = /^([A-Z][A-Z0-9_]+)(?:\.(\w+))?$/.exec(expression);
  const value = m && constants.get(m[1]!);
  if (!value) return expression;
  if (!m[2]) return value;
  return new RegExp(`\\b${m[2]}: ([^,}]+)`).exec(value)?.[1]?.trim() ?? expression;
}

/** Every top-level `const NAME = value;` of the source tree (the defaults the loader names). */
export function sourceConstants(): Map<string, string> {
  const constants = new Map<string, string>();
  for (const file of new Bun.Glob("src/**/*.ts").scanSync(ROOT)) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const m of text.matchAll(/^(?:export )?const ([A-Z][A-Z0-9_]+)(?::[^=]+)? = ([^;]+);/gm)) constants.set(m[1]!, m[2]!.trim());
  }
  return constants;
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

const escaped = (key: string) => key.replace(/[.[\]]/g, (c) => `\\${c}`);

/** The variables whose description names the key as (key), (…; key) or (key; …). */
function variablesOf(key: string, variables: EnvVariable[]): string[] {
  const named = new RegExp(`[(; ]${escaped(key)}[);]`);
  return variables.filter((v) => named.test(v.description)).map((v) => `\`${v.name}\``);
}

/** What a key does, then the schema's format hint when it has one. */
export function keyDescription(row: Row): string {
  const text = KEY_DESCRIPTIONS[row.key] ?? "";
  return row.description && text ? `${text} Format: ${row.description}.` : text;
}

export function configurationReference(): string {
  const constants = sourceConstants();
  const defaults = loaderDefaults(
    LOADER_FILES.map((f) => readFileSync(join(ROOT, f), "utf8")),
    constants,
  );
  const { usage, credentials, providerKeys } = gatewayVariables();
  const variables = [...usage, ...credentials];
  const rows = schemaRows(GatewayFileSchema).map((r) => {
    const other = OTHER_DEFAULTS[r.key];
    // a default the loader writes as an expression (videos.poll_max_ms) is stated in words there
    const fallback = other === undefined ? defaults.get(r.key) : resolved(other, constants).replace(/(\d)_(?=\d)/g, "$1");
    return `| \`${r.key}\` | ${r.type} | ${fallback ? `\`${cell(fallback)}\`` : ""} | ${variablesOf(r.key, variables).join(", ")} | ${cell(keyDescription(r))} |`;
  });
  const envRows = (list: EnvVariable[]) => list.map((v) => `| \`${v.name}\` | ${cell(v.description)} |`);
  return [
    "<!-- generated by `bun run docs:generate` from src/config-schema.ts, src/config-media-schema.ts, src/config*.ts, src/cli/usage.ts, the default catalogs and scripts/docs/config-descriptions.ts: edit those, not this file -->",
    "# Configuration reference",
    "",
    `This page answers: which \`gateway.yaml\` keys and environment variables exist, of what type, with what default, and what each does. Environment variables win over the file; in the file, \`\${NAME}\` is replaced by the environment variable \`NAME\` (a missing one is a config error).`,
    "",
    "## gateway.yaml keys",
    "",
    "A `[]` in a key is an item of a list (`providers[].slug` is the `slug` of each provider). A blank default means unset (or required where the schema says so); the description says what unset means.",
    "",
    "| Key | Type | Default | Environment variable | Description |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    "## Environment variables",
    "",
    "As `gateway --help` describes them.",
    "",
    "| Variable | What it sets |",
    "| --- | --- |",
    ...envRows(usage),
    "",
    "### Credentials of Bedrock and Vertex AI",
    "",
    "Read where `gateway.yaml` leaves a Bedrock or Vertex AI provider's credential or place unset, and for the default catalog's providers of those APIs.",
    "",
    "| Variable | What it sets |",
    "| --- | --- |",
    ...envRows(credentials),
    "",
    "### Provider keys of the default catalog",
    "",
    "While `catalog.default` is on, a default-catalog provider serves with the gateway's own key once all its variables are set (`gateway config check` lists the active ones).",
    "",
    "| Variable | What it sets |",
    "| --- | --- |",
    ...envRows(providerKeys),
    "",
  ].join("\n");
}
