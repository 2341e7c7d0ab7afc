import { useState } from "preact/hooks";
import { Checkbox, Field, Select } from "../components/field";
import type { ConsoleGuardrail } from "../types";

/** What the create and edit forms send: every field, so an edit replaces each list (the server checks them all again). */
export type GuardrailFormValues = Record<string, unknown>;

export const BUILTIN_FILTERS = [
  ["email", "Email addresses"],
  ["phone", "Phone numbers"],
  ["ssn", "US Social Security numbers"],
  ["credit-card", "Card numbers"],
  ["ip-address", "IP addresses"],
  ["secrets", "Secrets (API keys, tokens)"],
  ["person-name", "Person names"],
  ["address", "Postal addresses"],
  ["regex-prompt-injection", "Prompt injection"],
] as const;

const ZDR_VENDORS = ["anthropic", "openai", "google", "xai", "other"] as const;
const TRAINING = [
  ["enable_paid_model_training", "Paid models may train on prompts"],
  ["enable_free_model_training", "Free models may train on prompts"],
  ["enable_free_model_publication", "Free models may publish prompts"],
] as const;

type Custom = { pattern: string; action: string; label: string };

/** "a, b" or one a line as the API's list; empty: null (not set; the API refuses an empty list) */
const listOf = (text: string): string[] | null => {
  const items = text
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : null;
};
const textOf = (list: string[] | null | undefined) => (list ? list.join(", ") : "");
/** a yes/no/not-set choice as the API's nullable boolean */
const switchOf = (v: string): boolean | null => (v === "" ? null : v === "yes");
const choiceOf = (v: boolean | null | undefined) => (v === null || v === undefined ? "" : v ? "yes" : "no");

/** The fields of a guardrail, blank for a new one; a workspace's default guardrail keeps its name. */
export function GuardrailForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  busy,
  label,
}: {
  initial?: ConsoleGuardrail;
  submitLabel: string;
  onSubmit: (body: GuardrailFormValues) => void;
  onCancel: () => void;
  busy: boolean;
  label: string;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [limit, setLimit] = useState(initial?.limit_usd === null || initial === undefined ? "" : String(initial.limit_usd));
  const [reset, setReset] = useState<string>(initial?.reset_interval ?? "");
  const [byok, setByok] = useState(initial?.include_byok_in_budgets ?? false);
  const [allowedModels, setAllowedModels] = useState(textOf(initial?.allowed_models));
  const [ignoredModels, setIgnoredModels] = useState(textOf(initial?.ignored_models));
  const [allowedProviders, setAllowedProviders] = useState(textOf(initial?.allowed_providers));
  const [ignoredProviders, setIgnoredProviders] = useState(textOf(initial?.ignored_providers));
  const [regions, setRegions] = useState(textOf(initial?.allowed_data_regions));
  const [zdr, setZdr] = useState<Record<string, boolean>>(() => Object.fromEntries(ZDR_VENDORS.map((v) => [v, initial?.[`enforce_zdr_${v}`] === true])));
  const [training, setTraining] = useState<Record<string, string>>(() => Object.fromEntries(TRAINING.map(([k]) => [k, choiceOf(initial?.[k])])));
  const [builtins, setBuiltins] = useState<Record<string, string>>(() =>
    Object.fromEntries(BUILTIN_FILTERS.map(([slug]) => [slug, initial?.content_filter_builtins?.find((b) => b.slug === slug)?.action ?? ""])),
  );
  const [custom, setCustom] = useState<Custom[]>(initial?.content_filters?.map((c) => ({ pattern: c.pattern, action: c.action, label: c.label ?? "" })) ?? []);
  const setCustomAt = (i: number, patch: Partial<Custom>) => setCustom(custom.map((c, j) => (j === i ? { ...c, ...patch } : c)));

  const submit = (e: Event) => {
    e.preventDefault();
    // a scan scope set through the API (the prompt-injection filter's) is kept: the form does not show it
    const scope = (slug: string) => initial?.content_filter_builtins?.find((b) => b.slug === slug)?.scan_scope;
    const chosen = BUILTIN_FILTERS.filter(([slug]) => builtins[slug]).map(([slug]) => ({
      slug,
      action: builtins[slug],
      ...(scope(slug) === undefined ? {} : { scan_scope: scope(slug) }),
    }));
    const body: GuardrailFormValues = {
      description: description.trim() === "" ? null : description,
      limit_usd: limit.trim() === "" ? null : Number(limit),
      reset_interval: reset === "" ? null : reset,
      include_byok_in_budgets: byok,
      allowed_models: listOf(allowedModels),
      ignored_models: listOf(ignoredModels),
      allowed_providers: listOf(allowedProviders),
      ignored_providers: listOf(ignoredProviders),
      allowed_data_regions: listOf(regions),
      // per vendor: the deprecated enforce_zdr only fills in the vendors a body leaves out
      enforce_zdr: null,
      ...Object.fromEntries(ZDR_VENDORS.map((v) => [`enforce_zdr_${v}`, zdr[v] ? true : null])),
      ...Object.fromEntries(TRAINING.map(([k]) => [k, switchOf(training[k] ?? "")])),
      content_filter_builtins: chosen.length ? chosen : null,
      content_filters: custom.length ? custom.map((c) => ({ pattern: c.pattern, action: c.action, label: c.label.trim() === "" ? null : c.label })) : null,
    };
    if (!initial?.is_default) body.name = name;
    onSubmit(body);
  };
  return (
    <form class="form" aria-label={label} onSubmit={submit}>
      <div class="form-grid">
        {!initial?.is_default && <Field label="Name" value={name} onInput={setName} required />}
        <Field label="Description" value={description} onInput={setDescription} />
        <Field
          label="Budget (USD)"
          type="number"
          min="0"
          step="0.01"
          value={limit}
          onInput={setLimit}
          hint="Per key and per member, with a reset; empty: none"
        />
        {/* the API sets a budget with its window: asked for here rather than refused after */}
        <Select label="Budget resets" value={reset} onChange={setReset} required={limit.trim() !== ""}>
          <option value="">No budget</option>
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
        </Select>
      </div>
      <Checkbox label="BYOK spend counts toward the budget" checked={byok} onChange={setByok} />
      <fieldset class="group">
        <legend>Models and providers</legend>
        <p class="muted">Comma-separated; empty: no rule.</p>
        <div class="form-grid">
          <Field label="Allowed models" value={allowedModels} onInput={setAllowedModels} placeholder="openai/gpt-4o-mini" />
          <Field label="Ignored models" value={ignoredModels} onInput={setIgnoredModels} />
          <Field label="Allowed providers" value={allowedProviders} onInput={setAllowedProviders} />
          <Field label="Ignored providers" value={ignoredProviders} onInput={setIgnoredProviders} />
          <Field label="Allowed data regions" value={regions} onInput={setRegions} placeholder="global, europe, us" />
        </div>
      </fieldset>
      <fieldset class="group">
        <legend>Data policy</legend>
        <div class="form-grid">
          {ZDR_VENDORS.map((v) => (
            <Checkbox
              key={v}
              label={`Zero data retention: ${v === "other" ? "other vendors" : v}`}
              checked={zdr[v] ?? false}
              onChange={(c) => setZdr({ ...zdr, [v]: c })}
            />
          ))}
          {TRAINING.map(([k, text]) => (
            <Select key={k} label={text} value={training[k] ?? ""} onChange={(v) => setTraining({ ...training, [k]: v })}>
              <option value="">Not set</option>
              <option value="yes">Yes</option>
              <option value="no">No</option>
            </Select>
          ))}
        </div>
      </fieldset>
      <fieldset class="group">
        <legend>Content filters</legend>
        <div class="form-grid">
          {BUILTIN_FILTERS.map(([slug, text]) => (
            <Select key={slug} label={text} value={builtins[slug] ?? ""} onChange={(v) => setBuiltins({ ...builtins, [slug]: v })}>
              <option value="">Off</option>
              <option value="redact">Redact</option>
              <option value="block">Block</option>
              <option value="flag">Flag</option>
            </Select>
          ))}
        </div>
        {custom.map((c, i) => (
          <fieldset class="group" key={i}>
            <legend>Custom pattern {i + 1}</legend>
            <div class="form-grid">
              <Field label={`Pattern ${i + 1}`} value={c.pattern} onInput={(v) => setCustomAt(i, { pattern: v })} required />
              <Select label={`Action of pattern ${i + 1}`} value={c.action} onChange={(v) => setCustomAt(i, { action: v })}>
                <option value="redact">Redact</option>
                <option value="block">Block</option>
                <option value="flag">Flag</option>
              </Select>
              <Field label={`Label of pattern ${i + 1}`} value={c.label} onInput={(v) => setCustomAt(i, { label: v })} />
              <div class="actions">
                <button type="button" class="button button-small" onClick={() => setCustom(custom.filter((_, j) => j !== i))}>
                  Remove pattern {i + 1}
                </button>
              </div>
            </div>
          </fieldset>
        ))}
        <div class="actions">
          <button type="button" class="button button-small" onClick={() => setCustom([...custom, { pattern: "", action: "block", label: "" }])}>
            Add a custom pattern
          </button>
        </div>
      </fieldset>
      <div class="actions">
        <button type="submit" class="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
        <button type="button" class="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
