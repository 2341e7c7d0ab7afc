import { expect, test } from "bun:test";
import { buildCatalog } from "../../../src/catalog/build-catalog";
import { unpricedEndpoints } from "../../../src/catalog/unpriced";

test("endpoints declared without any price are listed; an explicit zero is not", () => {
  const catalog = buildCatalog({
    providers: [{ slug: "p", api: "openai-chat", base_url: "http://127.0.0.1:1/v1", api_key: "k" }],
    models: [
      { id: "a/free", endpoints: [{ provider: "p", model: "free", pricing: { prompt: "0", completion: "0" } }] },
      { id: "a/forgot", endpoints: [{ provider: "p", model: "forgot" }] },
    ],
    catalog: { default: false },
  } as never);
  expect(unpricedEndpoints(catalog)).toEqual(["a/forgot via p"]);
});
