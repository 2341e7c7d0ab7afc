// The built-in content filters: generated emails, phone numbers, Luhn-valid card numbers, SSNs
// and IPs inside random text are all redacted; random text without them is left byte-identical;
// ordinary words are never taken for names or addresses; every preset runs in linear time.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { BUILTIN_SLUGS, BUILTINS, type BuiltinSlug, luhnValid } from "../../../../src/gateway/guardrails/builtins";
import { combineFilters, screenText } from "../../../../src/gateway/guardrails/content-filter";

const redactAll = combineFilters(
  BUILTIN_SLUGS.map((slug) => ({ slug, action: "redact" as const })),
  [],
)!;
const redact = (slug: BuiltinSlug, text: string) => screenText(combineFilters([{ slug, action: "redact" }], [])!, text, true).text;

/** Words of letters and punctuation: no digit, no @, nothing any preset looks for. */
const prose = fc
  .array(fc.stringMatching(/^[A-Za-z]{1,12}[,.;!?]?$/), { minLength: 0, maxLength: 30 })
  .map((words) => words.join(" "))
  .filter((s) => !/(?:jailbreak|ignore|disregard|forget|override|reveal|show|print|repeat|output|leak|instructions|you are now)/i.test(s));

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(""));

/** 16 digits whose last is the Luhn check digit, grouped by 4 with a space, a dash or nothing. */
const card = fc.tuple(fc.constantFrom("4", "51", "37", "6011"), digits(14), fc.constantFrom(" ", "-", "")).map(([prefix, rest, sep]) => {
  const body = (prefix + rest).slice(0, 15);
  const check = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].find((d) => luhnValid(body + d))!;
  const number = body + check;
  return number.match(/.{4}/g)!.join(sep);
});

const ssn = fc
  .tuple(fc.integer({ min: 1, max: 899 }), fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 9999 }))
  .filter(([area]) => area !== 666)
  .map(([a, g, s]) => `${String(a).padStart(3, "0")}-${String(g).padStart(2, "0")}-${String(s).padStart(4, "0")}`);

const phone = fc
  .tuple(fc.integer({ min: 200, max: 999 }), fc.integer({ min: 200, max: 999 }), digits(4), fc.integer({ min: 0, max: 3 }))
  .map(([area, ex, line, form]) => [`(${area}) ${ex}-${line}`, `${area}-${ex}-${line}`, `+1 ${area} ${ex} ${line}`, `${area}.${ex}.${line}`][form]!);

const embedded = (secret: fc.Arbitrary<string>) => fc.tuple(prose, secret, prose).map(([before, s, after]) => ({ s, text: `${before} ${s} ${after}` }));

describe("built-in filters (property tests)", () => {
  const cases: Array<[BuiltinSlug, fc.Arbitrary<string>]> = [
    ["email", fc.emailAddress()],
    ["phone", phone],
    ["credit-card", card],
    ["ssn", ssn],
    ["ip-address", fc.oneof(fc.ipV4(), fc.ipV6())],
  ];
  for (const [slug, arbitrary] of cases)
    test(`${slug}: every generated one inside random text is redacted`, () => {
      fc.assert(
        fc.property(embedded(arbitrary), ({ s, text }) => {
          const out = redact(slug, text);
          expect(out).not.toContain(s);
          expect(out).toContain(BUILTINS[slug].label);
        }),
        { numRuns: 300 },
      );
    });

  test("random text without any of them is left byte-identical by every preset at once", () => {
    fc.assert(
      fc.property(prose, (text) => {
        expect(screenText(redactAll, text, true).text).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  test("person-name and address take only what a cue makes certain, never ordinary words", () => {
    expect(redact("person-name", "Dr. Alice Martin met Bob")).toBe("Dr. [PERSON_NAME] met Bob");
    expect(redact("person-name", "My name is Jean-Luc Picard.")).toBe("My name is [PERSON_NAME].");
    expect(redact("person-name", "Alice Martin met Bob in Paris")).toBe("Alice Martin met Bob in Paris");
    expect(redact("address", "Ship to 221B Baker Street, London")).toBe("Ship to [ADDRESS], London");
    expect(redact("address", "1600 Pennsylvania Avenue, Washington, DC 20500 please")).toBe("[ADDRESS] please");
    expect(redact("address", "We sold 3 Big Boxes on the street")).toBe("We sold 3 Big Boxes on the street");
  });

  test("a card number needs its Luhn check digit; an SSN the SSA's rules", () => {
    expect(redact("credit-card", "4111 1111 1111 1111 and 4111 1111 1111 1112")).toBe("[CREDIT_CARD] and 4111 1111 1111 1112");
    expect(redact("ssn", "000-12-3456 666-12-3456 900-12-3456 123-00-4567 123-45-0000 123-45-6789")).toBe(
      "000-12-3456 666-12-3456 900-12-3456 123-00-4567 123-45-0000 [SSN]",
    );
  });
});

describe("linear time", () => {
  // inputs each pattern would backtrack on if it could: long runs of what it consumes, without what ends a match
  const adversarial = [
    "a".repeat(200_000),
    "a.".repeat(100_000),
    `${"a".repeat(100_000)}@${"b-".repeat(50_000)}`,
    "1 ".repeat(100_000),
    "1".repeat(200_000),
    "1-".repeat(100_000),
    "1.".repeat(100_000),
    ":".repeat(200_000),
    "f:".repeat(100_000),
    "Dr. Aaaa ".repeat(20_000),
    "1 Aaaa ".repeat(25_000),
    "ignore ".repeat(25_000),
  ];
  test("every preset scans 200,000 characters of its worst input in well under a second, the same per character as 20,000", () => {
    for (const text of adversarial) {
      const small = text.slice(0, text.length / 10);
      const time = (t: string) => {
        const started = performance.now();
        screenText(redactAll, t, true);
        return performance.now() - started;
      };
      time(small);
      const [tSmall, tLarge] = [time(small), time(text)];
      expect(tLarge).toBeLessThan(1000);
      // ten times the text: about ten times the time (a quadratic scan would take a hundred)
      expect(tLarge).toBeLessThan(Math.max(30 * tSmall, 20));
    }
  });
});
