import { configText, type OtlpProfile } from "../profile";

/** A plain HTTP receiver of OTLP JSON: POST (or PUT) to its URL, with the user's headers. */
export const webhookProfile: OtlpProfile = {
  type: "webhook",
  configKeys: [
    { key: "url", required: true, url: true },
    { key: "method", required: false, default: "POST", oneOf: ["POST", "PUT"] },
  ],
  url: (config) => configText(config, "url"),
  method: (config) => (configText(config, "method") === "PUT" ? "PUT" : "POST"),
  authHeaders: () => ({}),
};
