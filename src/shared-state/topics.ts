import type { CacheTopic } from "./types";

// a record, so that adding a topic to CacheTopic fails to compile until it is listed here
const TOPICS: Record<CacheTopic, true> = { keys: true, workspaces: true, byok: true, users: true, budgets: true, destinations: true, guardrails: true };

export const CACHE_TOPICS = Object.keys(TOPICS) as readonly CacheTopic[];

/** a topic read from the wire, where another (maybe newer) instance wrote it */
export const isCacheTopic = (value: unknown): value is CacheTopic => typeof value === "string" && Object.hasOwn(TOPICS, value);
