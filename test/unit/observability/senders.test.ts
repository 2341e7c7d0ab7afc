// The registry and each OTLP type's config keys as OpenRouter's OpenAPI spec names them (the
// observability destination configs): required keys, defaults, allowed values, which values are secret and which are URLs.
import { expect, test } from "bun:test";
import { DESTINATION_TYPES, type DestinationType } from "../../../src/observability/contract";
import { senderFor } from "../../../src/observability/senders";

const OTLP: Record<string, string[]> = {
  "otel-collector": ["endpoint* url"],
  webhook: ["url* url", "method=POST oneOf:POST|PUT"],
  grafana: ["apiKey* secret", "instanceId*", "baseUrl=https://otlp-gateway-prod-us-west-0.grafana.net url"],
  newrelic: ["licenseKey* secret", "region=us oneOf:us|eu"],
  sentry: ["dsn* secret pattern", "otlpEndpoint* url"],
  langfuse: ["publicKey*", "secretKey* secret", "baseUrl=https://us.cloud.langfuse.com url"],
  langsmith: ["apiKey* secret", "endpoint=https://api.smith.langchain.com url", "project=main", "workspaceId"],
  arize: ["apiKey* secret", "spaceKey*", "modelId*", "baseUrl=https://otlp.arize.com url"],
  ramp: ["apiKey* secret", "baseUrl=https://api.ramp.com/developer/v1/ai-usage/openrouter url"],
};

test("each OTLP type's config keys, as the contract names them", () => {
  const described = Object.fromEntries(
    Object.keys(OTLP).map((type) => [
      type,
      senderFor(type as DestinationType).configKeys.map((k) =>
        [
          `${k.key}${k.required ? "*" : ""}${k.default === undefined ? "" : `=${k.default}`}`,
          k.secret ? "secret" : "",
          k.url ? "url" : "",
          k.oneOf ? `oneOf:${k.oneOf.join("|")}` : "",
          k.pattern ? "pattern" : "",
        ]
          .filter(Boolean)
          .join(" "),
      ),
    ]),
  );
  expect(described).toEqual(OTLP);
});

test("every one of the 17 destination types has its own sender, and the registry answers it by its type", () => {
  expect(DESTINATION_TYPES.map((type) => senderFor(type).type)).toEqual([...DESTINATION_TYPES]);
  expect(DESTINATION_TYPES.length).toBe(17);
});
