import type { Me } from "../types";
import { Select } from "./field";

/** A workspace choice among those the viewer sees; `allLabel` offers "all" (managers). */
export function WorkspacePicker({ me, value, onChange, allLabel }: { me: Me; value: string; onChange: (id: string) => void; allLabel?: string }) {
  return (
    <Select label="Workspace" value={value} onChange={onChange}>
      {allLabel !== undefined && <option value="">{allLabel}</option>}
      {me.workspaces.map((w) => (
        <option value={w.id} key={w.id}>
          {w.name}
        </option>
      ))}
    </Select>
  );
}
