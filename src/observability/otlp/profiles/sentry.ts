import { configText, type OtlpProfile } from "../profile";

/** A Sentry DSN: `https://<public key>[:<secret>]@<host>[/<path>]/<project id>`. */
export const SENTRY_DSN = /^https:\/\/([^:@/\s]+)(?::[^@/\s]+)?@[^/@\s]+(?:\/[^/\s]+)*\/\d+\/?$/;

/** The DSN's public key, which Sentry's OTLP intake takes as `sentry_key`. */
export function sentryPublicKey(dsn: string): string {
  return SENTRY_DSN.exec(dsn)?.[1] ?? "";
}

/** Sentry's OTLP traces intake (`…/integration/otlp/v1/traces`), authenticated by the DSN's public key. */
export const sentryProfile: OtlpProfile = {
  type: "sentry",
  configKeys: [
    { key: "dsn", required: true, secret: true, pattern: SENTRY_DSN },
    { key: "otlpEndpoint", required: true, url: true },
  ],
  url: (config) => configText(config, "otlpEndpoint"),
  authHeaders: (config) => ({ "x-sentry-auth": `sentry sentry_key=${sentryPublicKey(configText(config, "dsn"))}` }),
};
