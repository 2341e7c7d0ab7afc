/**
 * Which keys a route accepts. `management`: management keys only (403 for inference keys);
 * `inference`: inference keys only (403 for management keys, as OpenRouter does);
 * `any`: both (presets, current-key metadata, generations).
 */
export type AuthKind = "management" | "inference" | "any";
