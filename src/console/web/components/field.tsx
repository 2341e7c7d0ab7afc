import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

type InputProps = {
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: "text" | "number" | "email" | "password" | "datetime-local" | "url";
  required?: boolean;
  placeholder?: string;
  hint?: string;
  min?: string;
  step?: string;
  name?: string;
};

/** A labelled input (every control on the pages has a label a screen reader reads). */
export function Field({ label, value, onInput, type = "text", required, placeholder, hint, min, step, name }: InputProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        required={required}
        placeholder={placeholder}
        min={min}
        step={step}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
      />
      {hint && <small id={`${id}-hint`}>{hint}</small>}
    </div>
  );
}

export function Select({ label, value, onChange, children, name }: { label: string; value: string; onChange: (value: string) => void; children: ComponentChildren; name?: string }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name} value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}>
        {children}
      </select>
    </div>
  );
}

export function Checkbox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div class="field field-check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)} />
      <label for={id}>{label}</label>
    </div>
  );
}

export function TextArea({ label, value, onInput, rows = 6 }: { label: string; value: string; onInput: (value: string) => void; rows?: number }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} rows={rows} value={value} onInput={(e) => onInput((e.currentTarget as HTMLTextAreaElement).value)} />
    </div>
  );
}
