// Model ids shared by the gateway child (gateway.yaml) and the load generator.
export const SAME_FORMAT_MODEL = "bench/chat";
export const TRANSLATED_MODEL = "bench/translated";
/** What the mock sees as `model` when called directly or through the floor proxy. */
export const UPSTREAM_MODEL = "m-chat";
