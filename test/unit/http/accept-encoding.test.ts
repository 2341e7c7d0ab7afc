import { expect, test } from "bun:test";
import { preferredEncoding } from "../../../src/http/accept-encoding";

test("Accept-Encoding picks brotli, then gzip, honouring weights and *", () => {
  expect(preferredEncoding(null)).toBeUndefined();
  expect(preferredEncoding("")).toBeUndefined();
  expect(preferredEncoding("identity")).toBeUndefined();
  expect(preferredEncoding("gzip")).toBe("gzip");
  expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
  expect(preferredEncoding("GZIP;q=0.8, br;q=0.5")).toBe("gzip");
  expect(preferredEncoding("br;q=0, gzip")).toBe("gzip");
  expect(preferredEncoding("gzip;q=0")).toBeUndefined();
  expect(preferredEncoding("*")).toBe("br");
  expect(preferredEncoding("*;q=0.5, br;q=0")).toBe("gzip");
  expect(preferredEncoding("deflate")).toBeUndefined();
});
