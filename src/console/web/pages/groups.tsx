import { useState } from "preact/hooks";
import { api } from "../api";
import { useAction } from "../components/action";
import { Select } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import "../identity.css";
import type { Me } from "../types";

type Role = "admin" | "member";
type Group = { id: string; display_name: string; external_id: string | null; members: Array<{ id: string; name: string }> };
type Mapping = { id: string; scim_group_id: string; workspace_id: string; role: Role; group_name: string | null; workspace_name: string | null };

/** "Engineering → Team": how a mapping is named on the page (and to screen readers on its controls) */
const mappingName = (m: Mapping) => `${m.group_name ?? "a deleted group"} → ${m.workspace_name ?? "a deleted workspace"}`;

/** A mapping's row: its role changed in place; a delete asks first whether the members it added stay. */
function MappingRow({ m, busy, run }: { m: Mapping; busy: boolean; run: (work: () => Promise<void>) => Promise<void> }) {
  const [deleting, setDeleting] = useState(false);
  const path = `/group-mappings/${encodeURIComponent(m.id)}`;
  const remove = (keep: boolean) => run(async () => void (await api(`${path}?keep_members=${keep}`, { method: "DELETE" })));
  return (
    <tr>
      <td data-label="Group">{m.group_name ?? <span class="muted">a deleted group</span>}</td>
      <td data-label="Workspace">{m.workspace_name ?? <span class="muted">a deleted workspace</span>}</td>
      <td data-label="Role">
        <select
          aria-label={`Role of ${mappingName(m)}`}
          value={m.role}
          disabled={busy}
          onChange={(e) => run(async () => void (await api(path, { method: "PATCH", body: { role: (e.currentTarget as HTMLSelectElement).value } })))}
        >
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
      </td>
      <td class="row-actions">
        {deleting ? (
          <fieldset class="confirm-delete">
            <legend>Delete {mappingName(m)}? The members it added to the workspace:</legend>
            <button type="button" class="button button-small button-danger" disabled={busy} onClick={() => remove(false)}>
              Remove them
            </button>
            <button type="button" class="button button-small" disabled={busy} onClick={() => remove(true)}>
              Keep them
            </button>
            <button type="button" class="button button-small" onClick={() => setDeleting(false)}>
              Cancel
            </button>
          </fieldset>
        ) : (
          <button
            type="button"
            class="button button-small button-danger"
            disabled={busy}
            onClick={() => setDeleting(true)}
            aria-label={`Delete ${mappingName(m)}`}
          >
            Delete
          </button>
        )}
      </td>
    </tr>
  );
}

/**
 * The groups the identity provider pushed through SCIM, with their members, and the mappings
 * that make a group's members members of a workspace with a role (OpenRouter's group mappings).
 */
export function GroupsPage({ me }: { me: Me }) {
  const groups = useLoad(() => api<{ data: Group[] }>("/groups").then((r) => r.data), []);
  const mappings = useLoad(() => api<{ data: Mapping[] }>("/group-mappings").then((r) => r.data), []);
  const { busy, error, run } = useAction(() => {
    mappings.reload();
    groups.reload();
  });
  const [group, setGroup] = useState("");
  const [workspace, setWorkspace] = useState("");
  const [role, setRole] = useState<Role>("member");
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => void (await api("/group-mappings", { method: "POST", body: { scim_group_id: group, workspace_id: workspace, role } })));
  };
  const mappedTo = (g: Group) =>
    (mappings.data ?? [])
      .filter((m) => m.scim_group_id === g.id)
      .map((m) => `${m.workspace_name ?? "a deleted workspace"} (${m.role})`)
      .join(", ");
  return (
    <>
      <h1>Groups</h1>
      <p class="muted">
        Your identity provider pushes these groups through SCIM. A mapping makes a group's members members of a workspace with a role, and takes them out when
        they leave the group.
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      <form class="form filters-form" onSubmit={create} aria-label="New group mapping">
        <h2>Map a group to a workspace</h2>
        <div class="form-grid">
          <Select label="Group" value={group} onChange={setGroup} required>
            <option value="">Choose a group</option>
            {(groups.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.display_name}
              </option>
            ))}
          </Select>
          <Select label="Workspace" value={workspace} onChange={setWorkspace} required>
            <option value="">Choose a workspace</option>
            {me.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </Select>
          <Select label="Role" value={role} onChange={(v) => setRole(v as Role)}>
            <option value="member">member</option>
            <option value="admin">admin</option>
          </Select>
        </div>
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={busy}>
            Create mapping
          </button>
        </div>
      </form>
      <h2 class="section-title">Mappings</h2>
      <LoadState loading={mappings.loading && !mappings.data} error={mappings.error} what="mappings" />
      {mappings.data && (
        <div class="table-wrap">
          <table class="mappings">
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Workspace</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {mappings.data.map((m) => (
                <MappingRow key={m.id} m={m} busy={busy} run={run} />
              ))}
              {mappings.data.length === 0 && (
                <tr>
                  <td colSpan={4} class="empty">
                    No group is mapped yet
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <h2 class="section-title">Groups</h2>
      <LoadState loading={groups.loading && !groups.data} error={groups.error} what="groups" />
      {groups.data && (
        <div class="table-wrap">
          <table class="groups">
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Members</th>
                <th scope="col">Mapped to</th>
              </tr>
            </thead>
            <tbody>
              {groups.data.map((g) => (
                <tr key={g.id}>
                  <td data-label="Group">{g.display_name}</td>
                  <td data-label="Members">{g.members.length === 0 ? <span class="muted">nobody</span> : g.members.map((u) => u.name).join(", ")}</td>
                  <td data-label="Mapped to">{mappedTo(g) || <span class="muted">no workspace</span>}</td>
                </tr>
              ))}
              {groups.data.length === 0 && (
                <tr>
                  <td colSpan={3} class="empty">
                    No groups yet: your identity provider creates them through SCIM (/scim/v2/Groups)
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
