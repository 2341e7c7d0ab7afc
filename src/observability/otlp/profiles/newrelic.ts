import { configText, type OtlpProfile } from "../profile";

/** New Relic's OTLP endpoints by region. */
export const NEW_RELIC_URLS: Readonly<Record<string, string>> = {
  us: "https://otlp.nr-data.net/v1/traces",
  eu: "https://otlp.eu01.nr-data.net/v1/traces",
};

/** New Relic: `api-key` license key; an attribute value longer than 4095 characters is refused there, so it is cut here. */
export const newRelicProfile: OtlpProfile = {
  type: "newrelic",
  configKeys: [
    { key: "licenseKey", required: true, secret: true },
    { key: "region", required: false, default: "us", oneOf: ["us", "eu"] },
  ],
  url: (config) => NEW_RELIC_URLS[configText(config, "region")] ?? NEW_RELIC_URLS.us!,
  authHeaders: (config) => ({ "api-key": configText(config, "licenseKey") }),
  attributeCap: 4095,
};
