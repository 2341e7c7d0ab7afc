import { describe, expect, test } from "bun:test";
import { NO_UNKNOWN_FIELDS } from "../../../src/formats/unknown-fields";
import { withoutDroppedParams, withUnknownFields } from "../../../src/providers/request-fields";

describe("the last changes to an upstream body", () => {
  test("the client's unknown fields sit beside the encoded ones, which win a clash", () => {
    const encoded = { model: "up-model", stream: true };
    expect(withUnknownFields(encoded, { model: "client-model", guided_json: { type: "object" } })).toEqual({
      model: "up-model",
      stream: true,
      guided_json: { type: "object" },
    });
    // nothing to add: the encoded body itself, not a copy
    expect(withUnknownFields(encoded, NO_UNKNOWN_FIELDS)).toBe(encoded);
  });

  test("drop_params removes exactly the named top-level fields, nested ones of the same name stay", () => {
    const body = { model: "m", stream_options: { include_usage: true }, metadata: { seed: 1 }, seed: 2 };
    expect(withoutDroppedParams(body, ["stream_options", "seed", "absent"])).toEqual({ model: "m", metadata: { seed: 1 } });
    expect(withoutDroppedParams(body, ["absent"])).toBe(body);
    expect(withoutDroppedParams(body, undefined)).toBe(body);
  });
});
