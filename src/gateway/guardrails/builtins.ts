import { isIPv6 } from "node:net";

/**
 * The built-in content filters (OpenRouter's "sensitive info" presets): each finds the spans of
 * one kind of personal data in a text. Every pattern is written to run in linear time: a match
 * may start only where the kind can start (a lookbehind refuses the middle of a token), and what
 * follows the start is bounded or cannot overlap itself, so no text makes a pattern backtrack
 * more than a bounded number of steps per position. Matches are then checked in code where a
 * pattern cannot say it (Luhn for cards, the top-level domain of an email, IPv6 syntax).
 *
 * `person-name` and `address` cannot be found exactly without a language model: they find only
 * what a cue makes certain (a title or "my name is" before a capitalised name; a house number,
 * capitalised words and a street suffix), so ordinary words are never taken for them. Known
 * misses: bare names ("Alice Martin"), lower-case names, addresses without a street suffix or
 * outside the English-speaking conventions.
 */

export type BuiltinSlug = "email" | "phone" | "ssn" | "credit-card" | "ip-address" | "secrets" | "person-name" | "address" | "regex-prompt-injection";

export const BUILTIN_SLUGS: readonly BuiltinSlug[] = [
  "email",
  "phone",
  "ssn",
  "credit-card",
  "ip-address",
  "secrets",
  "person-name",
  "address",
  "regex-prompt-injection",
];

/** A match: [start, end) in UTF-16 code units, and for prompt injection the pattern's name. */
export type Span = { start: number; end: number; pattern?: string };

export type Builtin = {
  slug: BuiltinSlug;
  /** what a redacted match becomes (OpenRouter's placeholders) */
  label: string;
  /** how a block names it: "Request blocked by content filter: <name>" */
  name: string;
  find(text: string): Span[];
};

/** All matches of a global pattern, each kept only if `accept` (default: all) says so. */
function scan(pattern: RegExp, text: string, accept: (match: string) => boolean = () => true): Span[] {
  const spans: Span[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (accept(m[0])) spans.push({ start: m.index, end: m.index + m[0].length });
    if (m[0].length === 0) pattern.lastIndex++;
  }
  return spans;
}

// RFC 5322 atext and dots in the local part; dot-separated labels and an alphabetic top-level domain after the @
const EMAIL = /(?<![A-Za-z0-9!#$%&'*+/=?^_`{|}~.-])[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
const EMAIL_TLD = /\.[A-Za-z]{2,63}$/;

// NANP numbers with optional +1, separators and area-code parentheses; E.164 numbers (+ and 8 to 15 digits)
const PHONE = /(?<![\w+])(?:(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-]?)\d{3}[\s.-]?\d{4}|\+\d{1,3}[\s.-]?\d{2,4}(?:[\s.-]?\d{2,4}){1,4})(?![\w])/g;
const PHONE_DIGITS = (match: string) => {
  const digits = match.replace(/\D/g, "").length;
  return digits >= 10 && digits <= 15;
};

// the SSA's rules: no area 000, 666 or 9xx, no group 00, no serial 0000; dashed only (a bare 9-digit run is too often something else)
const SSN = /(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])/g;

// 13 to 19 digits, single spaces or dashes between them, then the Luhn check
const CARD = /(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/g;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The longest Luhn-valid prefix of a digit run that ends at a separator or at its end (a card followed by other digits). */
function cardSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const run of scan(CARD, text)) {
    const raw = text.slice(run.start, run.end);
    for (let end = raw.length; end > 0; end--) {
      if (end < raw.length && raw[end] !== " " && raw[end] !== "-") continue;
      const digits = raw.slice(0, end).replace(/\D/g, "");
      if (digits.length < 13) break;
      if (luhnValid(digits)) {
        spans.push({ start: run.start, end: run.start + end });
        break;
      }
    }
  }
  return spans;
}

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`(?<![\\w.]|\\d\\.)(?:${OCTET}\\.){3}${OCTET}(?!\\w|\\.\\d)`, "g");
// candidates for IPv6: hex digits, colons (two at least) and dots, checked by node:net
const IPV6_TOKEN = /(?<![\w:.])[0-9A-Fa-f]{0,4}:[0-9A-Fa-f:.]*[0-9A-Fa-f:](?![\w:])/g;
const ipv6Valid = (token: string) => (token.match(/:/g)?.length ?? 0) >= 2 && isIPv6(token);

// provider keys and tokens with a recognisable prefix, JSON Web Tokens, PEM private keys
const SECRETS = new RegExp(
  [
    "(?<![\\w-])(?:sk|rk|pk)-(?:[A-Za-z0-9]+-){0,3}[A-Za-z0-9_-]{20,}",
    "(?<![\\w])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
    "(?<![\\w])(?:AKIA|ASIA)[0-9A-Z]{16}(?![\\w])",
    "(?<![\\w])gh[pousr]_[A-Za-z0-9]{36,}",
    "(?<![\\w])github_pat_[A-Za-z0-9_]{22,}",
    "(?<![\\w])xox[abprs]-[A-Za-z0-9-]{10,}",
    "(?<![\\w])AIza[0-9A-Za-z_-]{35}",
    "(?<![\\w-])eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}",
    "-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----[\\s\\S]{0,8192}?-----END [A-Z ]{0,20}PRIVATE KEY-----",
  ].join("|"),
  "g",
);

const NAME = "[A-Z][a-z]+(?:['-][A-Z]?[a-z]+)?";
// a title, or "my name is" / "name:", then one to three capitalised words
const PERSON_NAME = new RegExp(
  `(?:(?<![\\w])(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Madam)\\.?\\s+|(?<![\\w])(?:[Mm]y name is|I am called|[Nn]ame:)\\s+)(${NAME}(?:\\s${NAME}){0,2})(?![\\w])`,
  "dg",
);

const STREET = "Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Parkway|Pkwy|Highway|Hwy|Square|Sq";
// a house number, one to four capitalised words and a street suffix; then ", City, ST 12345" when it follows
const ADDRESS = new RegExp(
  `(?<![\\w])\\d{1,6}[A-Za-z]?\\s(?:[A-Z][a-z]+\\s){1,4}(?:${STREET})\\.?(?![\\w])(?:,\\s[A-Z][a-z]+(?:\\s[A-Z][a-z]+){0,2},\\s[A-Z]{2}\\s\\d{5}(?:-\\d{4})?(?![\\w]))?`,
  "g",
);

/** Named phrasings of prompt injection, matched case-insensitively. */
const INJECTIONS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    "ignore_previous_instructions",
    /\b(?:ignore|disregard|forget|override)\s(?:all\s|any\s|the\s|your\s)?(?:previous|prior|above|earlier|preceding)\s(?:instructions|prompts?|rules|directions|context)\b/gi,
  ],
  ["reveal_system_prompt", /\b(?:reveal|show|print|repeat|output|leak)\s(?:me\s)?(?:your|the)\s(?:system\s|initial\s|hidden\s)?(?:prompt|instructions)\b/gi],
  ["role_override", /\byou\sare\snow\s(?:in\s)?(?:DAN|developer\smode|jailbroken|unrestricted|an?\sunfiltered)\b/gi],
  ["jailbreak", /\b(?:jailbreak|do\sanything\snow)\b/gi],
  ["new_instructions", /\b(?:new|updated)\s(?:system\s)?instructions\s*:/gi],
];

function injectionSpans(text: string): Span[] {
  return INJECTIONS.flatMap(([name, pattern]) => scan(pattern, text).map((s) => ({ ...s, pattern: name })));
}

const hasDigit = (text: string) => /\d/.test(text);

export const BUILTINS: Readonly<Record<BuiltinSlug, Builtin>> = {
  email: {
    slug: "email",
    label: "[EMAIL]",
    name: "Email address",
    find: (text) => (text.includes("@") ? scan(EMAIL, text, (m) => EMAIL_TLD.test(m)) : []),
  },
  phone: { slug: "phone", label: "[PHONE]", name: "Phone number", find: (text) => (hasDigit(text) ? scan(PHONE, text, PHONE_DIGITS) : []) },
  ssn: { slug: "ssn", label: "[SSN]", name: "Social Security number", find: (text) => (text.includes("-") ? scan(SSN, text) : []) },
  "credit-card": { slug: "credit-card", label: "[CREDIT_CARD]", name: "Credit card number", find: (text) => (hasDigit(text) ? cardSpans(text) : []) },
  "ip-address": {
    slug: "ip-address",
    label: "[IP_ADDRESS]",
    name: "IP address",
    find: (text) => [...(text.includes(".") ? scan(IPV4, text) : []), ...(text.includes(":") ? scan(IPV6_TOKEN, text, ipv6Valid) : [])],
  },
  secrets: { slug: "secrets", label: "[SECRET]", name: "Secret", find: (text) => scan(SECRETS, text) },
  "person-name": {
    slug: "person-name",
    label: "[PERSON_NAME]",
    name: "Person name",
    find: (text) => {
      const spans: Span[] = [];
      PERSON_NAME.lastIndex = 0;
      // only the name is redacted, not its cue ("Dr. [PERSON_NAME]")
      for (let m = PERSON_NAME.exec(text); m !== null; m = PERSON_NAME.exec(text)) {
        const [start, end] = m.indices![1]!;
        spans.push({ start, end });
      }
      return spans;
    },
  },
  address: { slug: "address", label: "[ADDRESS]", name: "Address", find: (text) => (hasDigit(text) ? scan(ADDRESS, text) : []) },
  "regex-prompt-injection": { slug: "regex-prompt-injection", label: "[PROMPT_INJECTION]", name: "Prompt injection", find: injectionSpans },
};
