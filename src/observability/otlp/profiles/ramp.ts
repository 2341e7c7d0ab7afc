import { configText, type OtlpProfile } from "../profile";

/** Ramp's AI-usage OTLP intake, as given (its default is the path OpenRouter posts to), with a Bearer key. */
export const rampProfile: OtlpProfile = {
  type: "ramp",
  configKeys: [
    { key: "apiKey", required: true, secret: true },
    { key: "baseUrl", required: false, default: "https://api.ramp.com/developer/v1/ai-usage/openrouter", url: true },
  ],
  url: (config) => configText(config, "baseUrl"),
  authHeaders: (config) => ({ authorization: `Bearer ${configText(config, "apiKey")}` }),
};
