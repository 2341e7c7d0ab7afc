/** Property tests of the address rule: every spelling of an address is judged as the address. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { addressRefusal } from "../../../src/outbound/address-policy";
import { checkOutboundUrl } from "../../../src/outbound/check-url";

const policy = { allowPrivate: false, lookup: async () => [], lookupTimeoutMs: 100 };
const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
const ipv4 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
/** [base, prefix length] of ranges that must never pass */
const NON_PUBLIC: Array<[number, number]> = [
  [0x7f000000, 8],
  [0x0a000000, 8],
  [0xac100000, 12],
  [0xc0a80000, 16],
  [0xa9fe0000, 16],
  [0x64400000, 10],
  [0xe0000000, 4],
  [0x00000000, 8],
];
const inRange = ([base, bits]: [number, number]) => fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => (base + offset) >>> 0);
const nonPublic = fc.oneof(...NON_PUBLIC.map(inRange));

describe("address rule", () => {
  test("an IPv4 address and its IPv4-mapped IPv6 form get the same answer", () => {
    fc.assert(
      fc.property(ipv4, (n) => {
        const hex = `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
        expect(addressRefusal(`::ffff:${hex}`)).toBe(addressRefusal(dotted(n)));
      }),
    );
  });

  test("a non-public IPv4 address is refused however the URL spells it: dotted, decimal, hex, octal", async () => {
    await fc.assert(
      fc.asyncProperty(nonPublic, fc.constantFrom("dotted", "decimal", "hex", "octal"), async (n, form) => {
        const octets = dotted(n).split(".").map(Number);
        const host =
          form === "dotted"
            ? dotted(n)
            : form === "decimal"
              ? String(n)
              : form === "hex"
                ? `0x${n.toString(16)}`
                : octets.map((o) => `0${o.toString(8)}`).join(".");
        const checked = await checkOutboundUrl(`https://${host}/hook`, policy);
        expect(checked.ok).toBe(false);
        expect(!checked.ok && checked.reason).toStartWith(`address ${dotted(n)} is in a non-public range`);
      }),
      { numRuns: 300 },
    );
  });
});
