import { basicAuth, configText, joinUrl, type OtlpProfile } from "../profile";

/** Grafana Cloud's OTLP gateway (not the Tempo query URL): Basic instanceId:apiKey. */
export const grafanaProfile: OtlpProfile = {
  type: "grafana",
  configKeys: [
    { key: "apiKey", required: true, secret: true },
    { key: "instanceId", required: true },
    { key: "baseUrl", required: false, default: "https://otlp-gateway-prod-us-west-0.grafana.net", url: true },
  ],
  url: (config) => joinUrl(configText(config, "baseUrl"), "/otlp/v1/traces"),
  authHeaders: (config) => ({ authorization: basicAuth(configText(config, "instanceId"), configText(config, "apiKey")) }),
};
