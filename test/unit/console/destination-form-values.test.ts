// What the destination form sends: an edit leaves a secret that was not retyped out (the server
// keeps it), a cleared value goes back to its default, bad JSON is refused before anything is sent.
import { expect, test } from "bun:test";
import { destinationTypeForms } from "../../../src/console/destination-types";
import { createBody, FormProblem, initialValues, updateBody } from "../../../src/console/web/destination-form-values";
import type { Destination } from "../../../src/console/web/types";
import { senderFor } from "../../../src/observability/senders";

const forms = destinationTypeForms(senderFor);
const langfuse = forms.find((f) => f.type === "langfuse")!;
const stored: Destination = {
  id: "d1",
  type: "langfuse",
  name: "LF",
  enabled: true,
  privacy_mode: false,
  sampling_rate: 0.5,
  regions: ["global"],
  api_key_hashes: null,
  filter_rules: null,
  broadcast_generation_cost: false,
  broadcast_generation_identity: false,
  broadcast_generation_request_context: false,
  workspace_id: "w1",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  config: { publicKey: "pk-lf-1", secretKey: "sk-l…", baseUrl: "https://eu.cloud.langfuse.com", headers: { "X-Team": "…" } },
};

test("a new destination sends what was typed; empty keys take their defaults on the server", () => {
  const v = initialValues("langfuse", langfuse);
  expect(v.config).toEqual({ publicKey: "", secretKey: "", baseUrl: "" });
  const body = createBody({ ...v, name: " LF ", config: { publicKey: "pk", secretKey: "sk", baseUrl: "" }, apiKeyHashes: ["a".repeat(64)] }, langfuse, "w1");
  expect(body).toEqual({
    type: "langfuse",
    workspace_id: "w1",
    name: "LF",
    enabled: true,
    privacy_mode: false,
    sampling_rate: 1,
    api_key_hashes: ["a".repeat(64)],
    broadcast_generation_cost: false,
    broadcast_generation_identity: false,
    broadcast_generation_request_context: false,
    filter_rules: null,
    config: { publicKey: "pk", secretKey: "sk" },
  });
});

test("an edit shows stored values but no secret, and sends only the config that changed", () => {
  const v = initialValues("langfuse", langfuse, stored);
  expect(v.config).toEqual({ publicKey: "pk-lf-1", secretKey: "", baseUrl: "https://eu.cloud.langfuse.com" });
  expect(v.headers).toContain('"X-Team": "…"');
  // nothing changed: no config at all, so the server neither tests nor reseals
  expect(updateBody(v, langfuse, stored).config).toBeUndefined();
  // a retyped secret is sent; a cleared value goes back to its default (null)
  const changed = updateBody({ ...v, config: { ...v.config, secretKey: "sk-new", baseUrl: "" } }, langfuse, stored);
  expect(changed.config).toEqual({ secretKey: "sk-new", baseUrl: null });
  // headers: sent only when edited; emptied, they are removed
  expect(updateBody({ ...v, headers: "" }, langfuse, stored).config).toEqual({ headers: null });
});

test("JSON that does not parse, or is not an object, is refused naming the field", () => {
  const v = initialValues("langfuse", langfuse, stored);
  expect(() => updateBody({ ...v, filterRules: "{ groups: [] }" }, langfuse, stored)).toThrow(FormProblem);
  expect(() => updateBody({ ...v, filterRules: "{ groups: [] }" }, langfuse, stored)).toThrow(/^Filter rules: not valid JSON/);
  expect(() => updateBody({ ...v, headers: "[1]" }, langfuse, stored)).toThrow("Extra headers: expected a JSON object ({ ... })");
  expect(() => updateBody({ ...v, samplingRate: "" }, langfuse, stored)).toThrow(/^Sampling rate/);
  expect(updateBody({ ...v, filterRules: '{"groups":[]}' }, langfuse, stored).filter_rules).toEqual({ groups: [] });
});
