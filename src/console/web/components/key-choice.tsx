import type { Key } from "../types";

type Props = { keys: Key[]; chosen: string[]; onChange: (hashes: string[]) => void };

/** Which keys' generations a destination receives: checkboxes of the workspace's keys; none ticked means every key. */
export function KeyChoice({ keys, chosen, onChange }: Props) {
  // a chosen key that is no longer listed (deleted) stays visible, so it can be unticked
  const gone = chosen.filter((hash) => !keys.some((k) => k.hash === hash));
  const toggle = (hash: string, on: boolean) => onChange(on ? [...chosen, hash] : chosen.filter((h) => h !== hash));
  const box = (hash: string, name: string, label: string) => (
    <li key={hash}>
      <label class="check">
        <input type="checkbox" checked={chosen.includes(hash)} onChange={(e) => toggle(hash, (e.currentTarget as HTMLInputElement).checked)} />
        <span>
          {name} <small>{label}</small>
        </span>
      </label>
    </li>
  );
  return (
    <fieldset class="group">
      <legend>API keys</legend>
      <p class="muted">Only generations of the keys ticked; none ticked: every key of the workspace.</p>
      {keys.length + gone.length === 0 ? (
        <p class="muted">The workspace has no keys yet.</p>
      ) : (
        <ul class="choices">
          {keys.map((k) => box(k.hash, k.name, k.label))}
          {gone.map((hash) => box(hash, "a deleted key", `${hash.slice(0, 8)}…`))}
        </ul>
      )}
    </fieldset>
  );
}
