import { type Automaton, automatonMatches, compileAutomaton } from "./regex-match";
import { parseRegex, RegexSyntaxError } from "./regex-syntax";

/** Longest pattern a filter rule may hold. */
export const MAX_PATTERN_LENGTH = 512;
/** Only the first 64 KiB (code units) of a subject are searched. */
export const MAX_SUBJECT_LENGTH = 64 * 1024;

/**
 * A filter rule's regex, time-bounded by construction: JavaScript syntax without flags, matched
 * by a linear-time automaton instead of the backtracking `RegExp` (see regex-match.ts), so no
 * pattern can stall the worker that evaluates it. The work is bounded by the pattern cap (at most
 * MAX_INSTRUCTIONS states) times the subject cap. Backreferences and lookaround cannot be matched
 * that way and are refused when the rule is compiled.
 */
export type BoundedRegex = Readonly<{ pattern: string; test(subject: string): boolean }>;

export type RegexCompiled = { ok: true; regex: BoundedRegex } | { ok: false; error: string };

export function compileBoundedRegex(pattern: string): RegexCompiled {
  if (pattern.length > MAX_PATTERN_LENGTH) return { ok: false, error: `the pattern is longer than ${MAX_PATTERN_LENGTH} characters` };
  try {
    // JavaScript's own parser first: what it refuses is refused here too
    new RegExp(pattern);
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  let automaton: Automaton;
  try {
    automaton = compileAutomaton(parseRegex(pattern));
  } catch (err) {
    if (err instanceof RegexSyntaxError) return { ok: false, error: err.message };
    throw err;
  }
  return {
    ok: true,
    regex: { pattern, test: (subject) => automatonMatches(automaton, subject.length > MAX_SUBJECT_LENGTH ? subject.slice(0, MAX_SUBJECT_LENGTH) : subject) },
  };
}
