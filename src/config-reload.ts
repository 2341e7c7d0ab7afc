import type { Config } from "./config";

/**
 * What a reload (SIGHUP) may change on a running gateway: the catalog (providers, models, the
 * default catalog switch), the routing settings, and what requests read as they come (the
 * metrics token, how long Responses items are kept, the response cache). Everything else is bound to resources made
 * at start (the listening socket, the database, Redis, the body limit of the server) and waits
 * for a restart.
 */
const RELOADABLE = new Set<keyof Config>(["providers", "models", "catalog", "routing", "env", "aws", "metrics", "responses", "responseCache"]);

/** Differs between two loads without anything having changed: never worth a warning. */
const PER_LOAD = new Set<keyof Config>(["instanceId"]);

export type ReloadPlan = {
  /** the running configuration with the reloadable sections of the new load */
  config: Config;
  /** top-level settings that changed but apply only after a restart */
  restartNeeded: string[];
};

export function planReload(running: Config, loaded: Config): ReloadPlan {
  // env and aws: the provider keys the default catalog reads came with this load
  const config: Config = {
    ...running,
    providers: loaded.providers,
    models: loaded.models,
    catalog: loaded.catalog,
    routing: loaded.routing,
    env: loaded.env,
    aws: loaded.aws,
    metrics: loaded.metrics,
    responses: loaded.responses,
    responseCache: loaded.responseCache,
  };
  const restartNeeded = (Object.keys(loaded) as (keyof Config)[]).filter(
    (key) => !RELOADABLE.has(key) && !PER_LOAD.has(key) && JSON.stringify(loaded[key]) !== JSON.stringify(running[key]),
  );
  return { config, restartNeeded };
}
