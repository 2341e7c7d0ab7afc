import { expect, test } from "bun:test";
import { flatPassthrough, passthroughFor, type StoredVideoRequest } from "../../../src/videos/stored-request";

const request = (passthrough: StoredVideoRequest["passthrough"]): StoredVideoRequest => ({
  params: { prompt: "p", durationSeconds: 4, generateAudio: false },
  passthrough,
  candidates: ["a/m"],
  origin: "http://gw",
});

test("nested parameters and flat names mean the same; parameters wins a clash", () => {
  expect(flatPassthrough({ parameters: { quality: "high" } })).toEqual({ quality: "high" });
  expect(flatPassthrough({ quality: "low", style: "noir" })).toEqual({ quality: "low", style: "noir" });
  expect(flatPassthrough({ quality: "low", parameters: { quality: "high" } })).toEqual({ quality: "high" });
  expect(flatPassthrough(undefined)).toEqual({});
});

test("only the serving provider's block, and only its allow-listed names, are forwarded", () => {
  const r = request({ a: { parameters: { quality: "high", secret_flag: true }, loop: true }, b: { quality: "other" } });
  expect(passthroughFor(r, "a", ["quality", "loop"])).toEqual({ quality: "high", loop: true });
  expect(passthroughFor(r, "a", [])).toEqual({});
  expect(passthroughFor(r, "c", ["quality"])).toEqual({});
});
