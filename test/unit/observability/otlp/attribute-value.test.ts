import { expect, test } from "bun:test";
import fc from "fast-check";
import { double, encodeAttributes, encodeValue } from "../../../../src/observability/otlp/attribute-value";
import { decodeValue } from "./otlp-json";

test("whole numbers are intValue decimal strings, others doubles; bools, strings, arrays; objects a JSON string; unknowns left out", () => {
  expect(encodeValue(42)).toEqual({ intValue: "42" });
  expect(encodeValue(-7)).toEqual({ intValue: "-7" });
  expect(encodeValue(0.25)).toEqual({ doubleValue: 0.25 });
  expect(encodeValue(2 ** 60)).toEqual({ doubleValue: 2 ** 60 });
  expect(encodeValue(12345678901234567890n)).toEqual({ intValue: "12345678901234567890" });
  expect(encodeValue(true)).toEqual({ boolValue: true });
  expect(encodeValue("x")).toEqual({ stringValue: "x" });
  expect(encodeValue(["stop", 1, null])).toEqual({ arrayValue: { values: [{ stringValue: "stop" }, { intValue: "1" }] } });
  expect(encodeValue({ a: [1, "b"] })).toEqual({ stringValue: '{"a":[1,"b"]}' });
  expect(encodeValue(double(0))).toEqual({ doubleValue: 0 });
  expect(encodeValue(null)).toBeUndefined();
  expect(encodeValue(undefined)).toBeUndefined();
  expect(encodeValue(Number.NaN)).toBeUndefined();
  expect(encodeAttributes({ a: 1, b: undefined, c: null, d: "x" })).toEqual([
    { key: "a", value: { intValue: "1" } },
    { key: "d", value: { stringValue: "x" } },
  ]);
});

test("property: every JSON value encodes to exactly one OTLP value kind and reads back equal (objects as their JSON)", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const encoded = encodeValue(value);
      if (value === null) return encoded === undefined;
      expect(Object.keys(encoded!)).toHaveLength(1);
      const back = decodeValue(encoded);
      const expected = (v: unknown): unknown =>
        Array.isArray(v) ? v.filter((x) => x !== null).map(expected) : typeof v === "object" && v !== null ? JSON.stringify(v) : Object.is(v, -0) ? 0 : v;
      expect(back).toEqual(expected(value));
      return true;
    }),
  );
});
