import { useState } from "preact/hooks";
import { Checkbox, Field, Select } from "../components/field";
import { WorkspacePicker } from "../components/workspace-picker";
import { fromLocalInput, toLocalInput } from "../format";
import type { Key, Me } from "../types";

/** What the create and edit forms send (the server checks every field again). */
export type KeyFormValues = Record<string, unknown>;

const numberOrNull = (v: string) => (v.trim() === "" ? null : Number(v));

/** "50, 80, 100" (percent of the limit) as the API's fractions; empty: none */
export const thresholdsFromText = (v: string): number[] | null => {
  const parts = v
    .split(/[\s,]+/)
    .map((p) => p.replace("%", ""))
    .filter(Boolean);
  return parts.length === 0 ? null : parts.map((p) => Number(p) / 100);
};

const thresholdsText = (t: number[] | null | undefined) => (t ? t.map((f) => String(Math.round(f * 1000) / 10)).join(", ") : "");

/** The fields of a key, blank for a new one; `onSubmit` gets the body to send. */
export function KeyForm({
  me,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  busy,
}: {
  me: Me;
  initial?: Key;
  submitLabel: string;
  onSubmit: (body: KeyFormValues) => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [workspace, setWorkspace] = useState(initial?.workspace_id ?? me.workspaces.find((w) => w.is_default)?.id ?? me.workspaces[0]?.id ?? "");
  const [limit, setLimit] = useState(initial?.limit === null || initial === undefined ? "" : String(initial.limit));
  const [reset, setReset] = useState<string>(initial?.limit_reset ?? "");
  const [byok, setByok] = useState(initial?.include_byok_in_limit ?? false);
  const [rpm, setRpm] = useState(initial?.rate_limit.rpm?.toString() ?? "");
  const [tpm, setTpm] = useState(initial?.rate_limit.tpm?.toString() ?? "");
  const [concurrency, setConcurrency] = useState(initial?.rate_limit.concurrency?.toString() ?? "");
  const [expires, setExpires] = useState(toLocalInput(initial?.expires_at ?? null));
  const [alerts, setAlerts] = useState(thresholdsText(initial?.alert_thresholds));
  const submit = (e: Event) => {
    e.preventDefault();
    const body: KeyFormValues = {
      name,
      limit: numberOrNull(limit),
      limit_reset: reset === "" ? null : reset,
      include_byok_in_limit: byok,
      rate_limit: { rpm: numberOrNull(rpm), tpm: numberOrNull(tpm), concurrency: numberOrNull(concurrency) },
      alert_thresholds: thresholdsFromText(alerts),
    };
    // an unchanged expiry is not sent: a past one could not be saved again
    if (!initial || toLocalInput(initial.expires_at) !== expires) body.expires_at = fromLocalInput(expires);
    if (!initial) body.workspace_id = workspace;
    onSubmit(body);
  };
  return (
    <form class="form" onSubmit={submit}>
      <div class="form-grid">
        <Field label="Name" value={name} onInput={setName} required />
        {!initial && <WorkspacePicker me={me} value={workspace} onChange={setWorkspace} />}
        <Field label="Spending limit (USD)" type="number" min="0" step="0.01" value={limit} onInput={setLimit} hint="Empty: no limit" />
        <Select label="Limit resets" value={reset} onChange={setReset}>
          <option value="">Never (all time)</option>
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
        </Select>
        <Field label="Requests per minute" type="number" min="1" step="1" value={rpm} onInput={setRpm} hint="Empty: the workspace's" />
        <Field label="Tokens per minute" type="number" min="1" step="1" value={tpm} onInput={setTpm} hint="Empty: the workspace's" />
        <Field label="Concurrent requests" type="number" min="1" step="1" value={concurrency} onInput={setConcurrency} hint="Empty: the workspace's" />
        <Field label="Expires at (UTC)" type="datetime-local" value={expires} onInput={setExpires} hint="Empty: never" />
        <Field
          label="Budget alerts (% of the limit)"
          value={alerts}
          onInput={setAlerts}
          placeholder="50, 80, 100"
          hint="A webhook to the workspace's URL when the spend reaches each, once per window"
        />
        <Checkbox label="BYOK spend counts toward the limit" checked={byok} onChange={setByok} />
      </div>
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
