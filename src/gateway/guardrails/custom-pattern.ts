import { parseRegex, type RegexNode, RegexSyntaxError } from "../../observability/pipeline/regex-syntax";

/** Longest custom pattern (OpenRouter's limit). */
export const MAX_PATTERN_LENGTH = 100_000;

/**
 * Why a custom content-filter pattern is refused, or null when it may be used. Refused with
 * OpenRouter's `invalid_regex_pattern` [https://openrouter.ai/docs/guides/features/guardrails]:
 * what can backtrack catastrophically, lookaround, backreferences and nested quantifiers
 * (`(a+)+`); and what JavaScript itself does not compile. The syntax is read by the parser the
 * observability filter rules use (JavaScript's, without flags), which refuses lookaround and
 * backreferences itself.
 */
export function customPatternProblem(pattern: string): string | null {
  try {
    new RegExp(pattern);
  } catch (err) {
    return `the pattern does not compile: ${(err as Error).message}`;
  }
  let root: RegexNode;
  try {
    root = parseRegex(pattern);
  } catch (err) {
    if (err instanceof RegexSyntaxError) return err.message;
    throw err;
  }
  return nestedQuantifier(root, false) ? "nested quantifiers (a repeated group that repeats inside, like (a+)+) are not supported" : null;
}

/** A repetition of more than one inside another repetition of more than one. */
function nestedQuantifier(node: RegexNode, insideRepeat: boolean): boolean {
  switch (node.t) {
    case "repeat": {
      const repeats = node.max > 1;
      if (repeats && insideRepeat) return true;
      return nestedQuantifier(node.node, insideRepeat || repeats);
    }
    case "seq":
      return node.items.some((item) => nestedQuantifier(item, insideRepeat));
    case "alt":
      return node.options.some((option) => nestedQuantifier(option, insideRepeat));
    default:
      return false;
  }
}
