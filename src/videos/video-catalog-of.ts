import type { Config } from "../config";
import { buildVideoCatalog, type VideoCatalog } from "./video-catalog";

const built = new WeakMap<object, VideoCatalog>();

/** The video catalog of a configuration, built once per configuration object (a reload brings a new one). */
export function videoCatalogOf(config: Pick<Config, "providers" | "videoModels">): VideoCatalog {
  let catalog = built.get(config);
  if (!catalog) {
    catalog = buildVideoCatalog(config);
    built.set(config, catalog);
  }
  return catalog;
}
