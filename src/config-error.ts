/** One thing wrong with the configuration: the field (or variable) at fault and what was wrong with it. */
export type ConfigIssue = { field: string; problem: string };

export function configIssue(field: string, expected: string, got?: unknown): ConfigIssue {
  return { field, problem: `expected ${expected}${got === undefined ? "" : ` (got ${JSON.stringify(got)})`}` };
}

/**
 * A configuration problem; main prints `message` and exits with code 2. Every issue is one line
 * starting with "config error:", so a file with several mistakes is fixed in one round.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
  readonly issues: readonly ConfigIssue[];

  constructor(fieldOrIssues: string | readonly ConfigIssue[], expected = "a valid value", got?: unknown) {
    const issues = typeof fieldOrIssues === "string" ? [configIssue(fieldOrIssues, expected, got)] : fieldOrIssues;
    super(issues.map((i) => `config error: ${i.field}: ${i.problem}`).join("\n"));
    this.issues = issues;
  }

  get field(): string {
    return this.issues[0]?.field ?? "";
  }
}
