import type { Config } from "./config";

/** The media model lists: served from the catalog like chat models, so a reload changes them too. */
const MEDIA_LISTS = ["imageModels", "speechModels", "transcriptionModels", "rerankModels"] as const;

/**
 * What a reload (SIGHUP) may change on a running gateway: the catalog (providers, models, the
 * default catalog switch), the routing settings, and what requests read as they come (the
 * metrics token, how long Responses items are kept, the response cache). Everything else is bound to resources made
 * at start (the listening socket, the database, Redis, the body limit of the server) and waits
 * for a restart.
 */
const RELOADABLE = new Set<keyof Config>([
  "providers",
  "models",
  ...MEDIA_LISTS,
  "catalog",
  "routing",
  "env",
  "aws",
  "credentialFiles",
  "metrics",
  "responses",
  "responseCache",
]);

/** Differs between two loads without anything having changed: never worth a warning. */
const PER_LOAD = new Set<keyof Config>(["instanceId"]);

export type ReloadPlan = {
  /** the running configuration with the reloadable sections of the new load */
  config: Config;
  /** top-level settings that changed but apply only after a restart */
  restartNeeded: string[];
};

export function planReload(running: Config, loaded: Config): ReloadPlan {
  // env and aws: the provider keys the default catalog reads came with this load; credentialFiles: the key files, read again
  const media = Object.fromEntries(MEDIA_LISTS.map((key) => [key, loaded[key]])) as Pick<Config, (typeof MEDIA_LISTS)[number]>;
  const config: Config = {
    ...running,
    providers: loaded.providers,
    models: loaded.models,
    ...media,
    catalog: loaded.catalog,
    routing: loaded.routing,
    env: loaded.env,
    aws: loaded.aws,
    credentialFiles: loaded.credentialFiles,
    metrics: loaded.metrics,
    responses: loaded.responses,
    responseCache: loaded.responseCache,
  };
  const restartNeeded = (Object.keys(loaded) as (keyof Config)[]).filter(
    (key) => !RELOADABLE.has(key) && !PER_LOAD.has(key) && JSON.stringify(loaded[key]) !== JSON.stringify(running[key]),
  );
  return { config, restartNeeded };
}
