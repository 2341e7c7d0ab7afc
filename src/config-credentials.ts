import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DEFAULT_CATALOG } from "./catalog/default-catalog";
import type { DefaultProvider } from "./catalog/default-catalog-data";
import { ConfigError, type ConfigIssue, configIssue } from "./config-error";
import type { GatewayFile } from "./config-schema";
import { readServiceAccount } from "./google-cloud";

type Env = Record<string, string | undefined>;

/** Where Google's client libraries look for a service-account key file (Application Default Credentials). */
export const GOOGLE_CREDENTIALS_VARIABLE = "GOOGLE_APPLICATION_CREDENTIALS";

/** A default-catalog Vertex provider serves when its project, location and key file variables are all set. */
export function vertexDefaultActive(p: DefaultProvider, env: Env): boolean {
  return p.vertexEnv !== undefined && Boolean(env[p.vertexEnv.project] && env[p.vertexEnv.location] && env[p.env]);
}

/** The key file each vertex provider of gateway.yaml reads, and the field that names it. */
function wantedFiles(file: GatewayFile, env: Env, defaultCatalog: boolean, issues: ConfigIssue[]): Map<string, string> {
  const wanted = new Map<string, string>();
  file.providers?.forEach((p, i) => {
    if (p.api !== "vertex") return;
    if (p.api_key) {
      // the key file's text given inline (api_key: ${VERTEX_KEY_JSON}); never echoed in the error
      const read = readServiceAccount(p.api_key);
      if (!read.ok) issues.push(configIssue(`providers[${i}].api_key`, `a service-account key file's JSON text (this one ${read.problem})`));
      return;
    }
    const own = p.vertex?.credentials_file;
    const path = own ?? env[GOOGLE_CREDENTIALS_VARIABLE];
    if (path && !wanted.has(path)) wanted.set(path, own ? `providers[${i}].vertex.credentials_file` : GOOGLE_CREDENTIALS_VARIABLE);
  });
  if (defaultCatalog) {
    for (const p of DEFAULT_CATALOG.providers) {
      const path = env[p.env];
      if (path && vertexDefaultActive(p, env) && !wanted.has(path)) wanted.set(path, p.env);
    }
  }
  return wanted;
}

/**
 * The service-account key files the configuration names (a vertex provider's
 * `vertex.credentials_file`, or GOOGLE_APPLICATION_CREDENTIALS), read and checked once when the
 * configuration loads: their JSON text by the path as written. A file that cannot be read, or is
 * no service-account key, is a config error naming the field or variable.
 */
export function readCredentialFiles(file: GatewayFile, env: Env, defaultCatalog: boolean): Record<string, string> {
  const issues: ConfigIssue[] = [];
  const texts: Record<string, string> = {};
  for (const [path, field] of wantedFiles(file, env, defaultCatalog, issues)) {
    let text: string;
    try {
      text = readFileSync(resolve(path), "utf8");
    } catch {
      issues.push(configIssue(field, "a readable service-account key file", path));
      continue;
    }
    const read = readServiceAccount(text);
    if (read.ok) texts[path] = text;
    else issues.push(configIssue(field, `a service-account key file (this one ${read.problem})`, path));
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return texts;
}
