import { Field, Select } from "../components/field";
import type { ConfigKeyField, Destination } from "../types";

type Props = {
  keys: ConfigKeyField[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  /** the stored destination being edited: its secrets are masked and kept unless retyped */
  editing?: Destination;
};

/**
 * The inputs of one destination type's config, drawn from its sender's config keys: a select for
 * a key with allowed values, a password input for a secret, a URL input for a URL, the default
 * as the placeholder (an empty field takes it).
 */
export function DestinationConfigFields({ keys, values, onChange, editing }: Props) {
  return (
    <>
      {keys.map((spec) => {
        const value = values[spec.key] ?? "";
        const set = (next: string) => onChange({ ...values, [spec.key]: next });
        if (spec.one_of)
          return (
            <Select key={spec.key} label={spec.label} value={value} onChange={set} required={spec.required} name={`config.${spec.key}`}>
              {!spec.required && <option value="">{spec.default ? `Default (${spec.default})` : "None"}</option>}
              {spec.one_of.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </Select>
          );
        const stored = editing?.config[spec.key];
        // an edit's empty secret keeps what is stored, so it is not required to be retyped
        const keepsSecret = spec.secret && editing !== undefined;
        const hint = keepsSecret
          ? typeof stored === "string"
            ? `Stored as ${stored}; leave empty to keep it.`
            : "Not set."
          : spec.default !== null
            ? `Empty: ${spec.default}`
            : undefined;
        return (
          <Field
            key={spec.key}
            label={spec.label}
            type={spec.secret ? "password" : spec.url ? "url" : "text"}
            value={value}
            onInput={set}
            required={spec.required && !keepsSecret}
            placeholder={keepsSecret ? "unchanged" : (spec.default ?? undefined)}
            hint={hint}
            name={`config.${spec.key}`}
            autoComplete={spec.secret ? "new-password" : "off"}
          />
        );
      })}
    </>
  );
}
