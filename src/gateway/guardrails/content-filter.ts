import { BUILTINS, type Builtin, type Span } from "./builtins";
import type { BuiltinEntry, CustomEntry, FilterAction, ScanScope } from "./rules";

/**
 * The content filters of one request, all its guardrails' together: they add up, and for the
 * same filter (a preset, or one custom pattern) block beats redact beats flag
 * [https://openrouter.ai/docs/guides/features/guardrails/sensitive-info].
 */
export type ContentFilters = ReadonlyArray<ActiveFilter>;

type ActiveFilter = {
  action: FilterAction;
  /** what a redacted match becomes */
  label: string;
  /** how a block and a flag name it */
  name: string;
  /** prompt injection: the role scanned */
  scope: ScanScope;
  find(text: string): Span[];
  injection: boolean;
};

const STRENGTH: Record<FilterAction, number> = { flag: 0, redact: 1, block: 2 };

const stronger = (a: FilterAction, b: FilterAction): FilterAction => (STRENGTH[a] >= STRENGTH[b] ? a : b);

/** Custom patterns compiled once per pattern text. */
const compiled = new Map<string, RegExp>();

function customFind(pattern: string): (text: string) => Span[] {
  let regex = compiled.get(pattern);
  if (!regex) {
    if (compiled.size >= 1000) compiled.clear();
    regex = new RegExp(pattern, "g");
    compiled.set(pattern, regex);
  }
  const re = regex;
  return (text) => {
    const spans: Span[] = [];
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      spans.push({ start: m.index, end: m.index + m[0].length });
    }
    return spans;
  };
}

/** The union of every guardrail's filters; null when there are none (the usual case: nothing to scan). */
export function combineFilters(builtins: ReadonlyArray<BuiltinEntry>, customs: ReadonlyArray<CustomEntry>): ContentFilters | null {
  const bySlug = new Map<string, { builtin: Builtin; action: FilterAction; scope: ScanScope }>();
  for (const entry of builtins) {
    const builtin = BUILTINS[entry.slug];
    const scope: ScanScope = entry.scan_scope ?? "all_messages";
    const seen = bySlug.get(entry.slug);
    bySlug.set(entry.slug, {
      builtin,
      action: seen ? stronger(seen.action, entry.action) : entry.action,
      // the broader scope of two: all messages
      scope: seen && seen.scope === "all_messages" ? "all_messages" : scope,
    });
  }
  const byPattern = new Map<string, { entry: CustomEntry; action: FilterAction }>();
  for (const entry of customs) {
    const seen = byPattern.get(entry.pattern);
    byPattern.set(entry.pattern, { entry: seen?.entry ?? entry, action: seen ? stronger(seen.action, entry.action) : entry.action });
  }
  const filters: ActiveFilter[] = [
    ...[...bySlug.values()].map(({ builtin, action, scope }) => ({
      action,
      label: builtin.label,
      name: builtin.name,
      scope,
      find: builtin.find,
      injection: builtin.slug === "regex-prompt-injection",
    })),
    ...[...byPattern.values()].map(({ entry, action }) => ({
      action,
      // OpenRouter: a custom filter's label, else [REDACTED] / [BLOCKED]
      label: entry.label ?? "[REDACTED]",
      name: entry.label ?? "[BLOCKED]",
      scope: "all_messages" as const,
      find: customFind(entry.pattern),
      injection: false,
    })),
  ];
  return filters.length === 0 ? null : filters;
}

/** What the filters found in one text: a block, or the text with its redactions, and the filters that flagged it. */
export type Screened = { blocked: { name: string; injection: string[] | null } | null; text: string; flagged: string[] };

/**
 * Screens one text of the request. A block wins over everything (the request is refused); else
 * every redact match is replaced by its label, overlapping matches merged into the first one's
 * span, so nothing of a match survives; flags only note the filter.
 */
export function screenText(filters: ContentFilters, text: string, isUser: boolean): Screened {
  const redactions: Array<Span & { label: string }> = [];
  const flagged: string[] = [];
  for (const f of filters) {
    if (f.injection && f.scope === "user_only" && !isUser) continue;
    const spans = f.find(text);
    if (spans.length === 0) continue;
    if (f.action === "block") {
      const injection = f.injection ? [...new Set(spans.map((s) => s.pattern!))] : null;
      return { blocked: { name: f.name, injection }, text, flagged };
    }
    if (f.action === "flag") flagged.push(f.name);
    else for (const s of spans) redactions.push({ ...s, label: f.label });
  }
  if (redactions.length === 0) return { blocked: null, text, flagged };
  redactions.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = "";
  let at = 0;
  for (let i = 0; i < redactions.length; ) {
    const first = redactions[i]!;
    let end = first.end;
    let j = i + 1;
    while (j < redactions.length && redactions[j]!.start < end) end = Math.max(end, redactions[j++]!.end);
    out += text.slice(at, first.start) + first.label;
    at = end;
    i = j;
  }
  return { blocked: null, text: out + text.slice(at), flagged };
}
