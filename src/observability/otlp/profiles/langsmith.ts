import type { ObservedGeneration } from "../../contract";
import type { Attributes } from "../attribute-value";
import { operationShapeOf } from "../operation";
import { configText, joinUrl, type OtlpProfile } from "../profile";
import { prefixed, traceFieldsOf } from "../trace-fields";

function generationAttributes(g: ObservedGeneration): Attributes {
  const fields = traceFieldsOf(g);
  return {
    "langsmith.span.kind": operationShapeOf(g).semconvOperation === "embeddings" ? "embedding" : "llm",
    "langsmith.trace.name": fields.traceName,
    "langsmith.trace.session_id": g.sessionId,
    ...prefixed("langsmith.metadata", fields.metadata),
  };
}

/** LangSmith's OTLP endpoint: `x-api-key`, the project by header, and the workspace for org-scoped keys. */
export const langsmithProfile: OtlpProfile = {
  type: "langsmith",
  configKeys: [
    { key: "apiKey", required: true, secret: true },
    { key: "endpoint", required: false, default: "https://api.smith.langchain.com", url: true },
    { key: "project", required: false, default: "main" },
    { key: "workspaceId", required: false },
  ],
  url: (config) => joinUrl(configText(config, "endpoint"), "/otel/v1/traces"),
  authHeaders: (config) => {
    const workspace = configText(config, "workspaceId");
    return {
      "x-api-key": configText(config, "apiKey"),
      "Langsmith-Project": configText(config, "project"),
      ...(workspace ? { "x-tenant-id": workspace } : {}),
    };
  },
  generationAttributes,
};
