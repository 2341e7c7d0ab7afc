// The console's destination form is made from the senders' own config keys, so it cannot drift
// from what the API checks.
import { expect, test } from "bun:test";
import { configKeyLabel, destinationTypeForms } from "../../../src/console/destination-types";
import { DESTINATION_TYPES } from "../../../src/observability/contract";
import { senderFor } from "../../../src/observability/senders";

test("labels come from the key names, acronyms in capitals", () => {
  expect(["apiKey", "accessKeyId", "baseUrl", "mlApp", "otlpEndpoint", "dsn", "url", "pathTemplate", "host"].map(configKeyLabel)).toEqual([
    "API key",
    "Access key ID",
    "Base URL",
    "ML app",
    "OTLP endpoint",
    "DSN",
    "URL",
    "Path template",
    "Host",
  ]);
});

test("every type of the registry, each key as its sender declares it", () => {
  const forms = destinationTypeForms(senderFor);
  expect(forms.map((f) => f.type)).toEqual([...DESTINATION_TYPES]);
  for (const form of forms) {
    const specs = senderFor(form.type).configKeys;
    expect(form.config_keys.map((k) => [k.key, k.required, k.default ?? undefined, k.secret, k.url, k.one_of ?? undefined])).toEqual(
      specs.map((s) => [s.key, s.required, s.default, s.secret ?? false, s.url ?? false, s.oneOf ? [...s.oneOf] : undefined]),
    );
  }
  const webhook = forms.find((f) => f.type === "webhook")!;
  expect(webhook).toEqual({
    type: "webhook",
    label: "Webhook",
    config_keys: [
      { key: "url", label: "URL", required: true, default: null, secret: false, url: true, one_of: null },
      { key: "method", label: "Method", required: false, default: "POST", secret: false, url: false, one_of: ["POST", "PUT"] },
    ],
  });
});

test("a type without a sender is left out", () => {
  const forms = destinationTypeForms((type) => {
    if (type === "s3") throw new Error("no sender");
    return senderFor(type);
  });
  expect(forms.some((f) => f.type === "s3")).toBe(false);
  expect(forms).toHaveLength(DESTINATION_TYPES.length - 1);
});
