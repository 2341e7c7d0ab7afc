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
  max?: string;
  step?: string;
  name?: string;
  autoComplete?: string;
};

/** A field's label; a required field's mark stands beside it, outside the label, for the eye only (the control itself says "required" to screen readers). */
function FieldLabel({ id, label, required }: { id: string; label: string; required?: boolean }) {
  return (
    <span class="label-line">
      <label for={id}>{label}</label>
      {required && (
        <span class="required-mark" aria-hidden="true">
          *
        </span>
      )}
    </span>
  );
}

/** A labelled input (every control on the pages has a label a screen reader reads). */
export function Field({ label, value, onInput, type = "text", required, placeholder, hint, min, max, step, name, autoComplete }: InputProps) {
  const id = useId();
  return (
    <div class="field">
      <FieldLabel id={id} label={label} required={required} />
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        required={required}
        placeholder={placeholder}
        min={min}
        max={max}
        step={step}
        autoComplete={autoComplete}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
      />
      {hint && <small id={`${id}-hint`}>{hint}</small>}
    </div>
  );
}

export function Select({
  label,
  value,
  onChange,
  children,
  name,
  required,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ComponentChildren;
  name?: string;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div class="field">
      <FieldLabel id={id} label={label} required={required} />
      <select id={id} name={name} value={value} required={required} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}>
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

export function TextArea({
  label,
  value,
  onInput,
  rows = 6,
  hint,
  placeholder,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  rows?: number;
  hint?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        placeholder={placeholder}
        spellcheck={false}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onInput={(e) => onInput((e.currentTarget as HTMLTextAreaElement).value)}
      />
      {hint && <small id={`${id}-hint`}>{hint}</small>}
    </div>
  );
}
