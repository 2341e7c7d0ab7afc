import { useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure, api, query } from "../api";
import { Checkbox, Field, Select, TextArea } from "../components/field";
import { KeyChoice } from "../components/key-choice";
import { Notice } from "../components/notice";
import { createBody, type DestinationFormValues, FormProblem, initialValues, updateBody } from "../destination-form-values";
import type { Destination, DestinationTypeForm, Key } from "../types";
import { DestinationConfigFields } from "./destination-config-fields";

type Props = {
  types: DestinationTypeForm[];
  workspaceId: string;
  /** the workspace's keys, to choose from */
  keys: Key[];
  /** the stored destination to edit; none: a new one */
  editing?: Destination;
  onSaved: (name: string) => void;
  onCancel: () => void;
};

const FILTER_EXAMPLE = '{ "groups": [{ "logic": "and", "rules": [{ "field": "model", "operator": "contains", "value": "gpt" }] }] }';

/** What a failure reads as: a failed connection test quotes the destination, in the console's words (not the API's ?skip_test). */
function problemText(err: unknown, saving: boolean): string {
  if (err instanceof ApiFailure && err.field === "config" && err.reason)
    return `Connection test failed: ${err.reason}.${saving ? " Correct the settings, or tick “Save without the connection test”." : ""}`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * A destination's form, new or edited: the type's own config fields, the settings every type
 * has, "Test connection" (the server runs the type's probe on what the form holds, saving
 * nothing) and save (the server tests again before saving, unless told not to).
 */
export function DestinationForm({ types, workspaceId, keys, editing, onSaved, onCancel }: Props) {
  const formOf = (type: string) => types.find((t) => t.type === type);
  // a new destination starts as a webhook, the type that needs only a URL
  const firstType = editing?.type ?? (formOf("webhook") ?? types[0])?.type ?? "";
  const [values, setValues] = useState<DestinationFormValues>(() => initialValues(firstType, formOf(firstType), editing));
  const [skipTest, setSkipTest] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const form = formOf(values.type);
  // the button that opened the form is gone: the keyboard goes on from the form's first control
  const box = useRef<HTMLFormElement>(null);
  useEffect(() => box.current?.querySelector<HTMLElement>("select, input")?.focus(), []);
  const set =
    <K extends keyof DestinationFormValues>(field: K) =>
    (value: DestinationFormValues[K]) =>
      setValues({ ...values, [field]: value });
  const chooseType = (type: string) => setValues({ ...initialValues(type, formOf(type)), name: values.name });

  const body = () => {
    if (!form) throw new FormProblem("Choose a type");
    return editing ? updateBody(values, form, editing) : createBody(values, form, workspaceId);
  };
  const act = async (work: () => Promise<void>, saving: boolean) => {
    setBusy(true);
    setOutcome(null);
    try {
      await work();
    } catch (err) {
      setOutcome({ kind: "error", text: problemText(err, saving) });
    } finally {
      setBusy(false);
    }
  };
  const test = () =>
    act(async () => {
      await api(editing ? `/destinations/${editing.id}/test` : "/destinations/test", { method: "POST", body: body() });
      setOutcome({ kind: "ok", text: "Connection test passed: the destination accepted the test." });
    }, false);
  const save = (e: Event) => {
    e.preventDefault();
    void act(async () => {
      const q = query({ skip_test: skipTest || undefined });
      if (editing) await api(`/destinations/${editing.id}${q}`, { method: "PATCH", body: body() });
      else await api(`/destinations${q}`, { method: "POST", body: body() });
      onSaved(values.name.trim());
    }, true);
  };
  const title = editing ? `Edit ${editing.name ?? editing.type}` : "New destination";

  return (
    <form class="form card" onSubmit={save} aria-label={title} ref={box}>
      <h2>{title}</h2>
      <div class="form-grid">
        {editing ? (
          <p class="field">
            <span class="field-label">Type</span> {form?.label ?? editing.type}
          </p>
        ) : (
          <Select label="Type" value={values.type} onChange={chooseType} required>
            {types.map((t) => (
              <option key={t.type} value={t.type}>
                {t.label}
              </option>
            ))}
          </Select>
        )}
        <Field label="Name" value={values.name} onInput={set("name")} required />
      </div>
      {form && (
        <fieldset class="group">
          <legend>{form.label} connection</legend>
          <div class="form-grid">
            <DestinationConfigFields keys={form.config_keys} values={values.config} onChange={set("config")} editing={editing} />
          </div>
          <TextArea
            label="Extra headers (JSON)"
            rows={3}
            value={values.headers}
            onInput={set("headers")}
            placeholder='{ "Authorization": "Bearer …" }'
            hint="Sent with every request; stored encrypted and shown masked (a masked value keeps what is stored). Empty: none."
          />
        </fieldset>
      )}
      <fieldset class="group">
        <legend>What is sent</legend>
        <div class="checks">
          <Checkbox label="Enabled" checked={values.enabled} onChange={set("enabled")} />
          <Checkbox label="Privacy mode (metadata only, no prompts or completions)" checked={values.privacyMode} onChange={set("privacyMode")} />
        </div>
        <div class="form-grid">
          <Field
            label="Sampling rate"
            type="number"
            min="0.0001"
            max="1"
            step="0.0001"
            value={values.samplingRate}
            onInput={set("samplingRate")}
            required
            hint="1: every generation; 0.1: one in ten"
          />
        </div>
        <p class="muted">Also send, beside each generation:</p>
        <div class="checks">
          <Checkbox label="Cost and tokens" checked={values.broadcastCost} onChange={set("broadcastCost")} />
          <Checkbox label="Identity (workspace, key, user)" checked={values.broadcastIdentity} onChange={set("broadcastIdentity")} />
          <Checkbox
            label="Request context (operation, model, provider, timings)"
            checked={values.broadcastRequestContext}
            onChange={set("broadcastRequestContext")}
          />
        </div>
      </fieldset>
      <KeyChoice keys={keys} chosen={values.apiKeyHashes} onChange={set("apiKeyHashes")} />
      <TextArea
        label="Filter rules (JSON)"
        rows={4}
        value={values.filterRules}
        onInput={set("filterRules")}
        placeholder={FILTER_EXAMPLE}
        hint="Only generations that match; empty: every generation. Fields, operators and limits as in the API."
      />
      <Checkbox label="Save without the connection test" checked={skipTest} onChange={setSkipTest} />
      {outcome && <Notice kind={outcome.kind}>{outcome.text}</Notice>}
      <div class="actions">
        <button type="button" class="button" disabled={busy || !form} onClick={() => void test()}>
          Test connection
        </button>
        <button type="submit" class="button button-primary" disabled={busy || !form}>
          {editing ? "Save" : "Create"}
        </button>
        <button type="button" class="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
