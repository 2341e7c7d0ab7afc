import { useState } from "preact/hooks";
import { api } from "../api";
import { useAction } from "../components/action";
import { CopyButton } from "../components/copy-button";
import { Field, Select } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import type { Me } from "../types";

type Person = {
  id: string;
  email: string | null;
  name: string | null;
  role: "owner" | "admin" | "member";
  signed_up: boolean;
  workspaces: Array<{ id: string; name: string }>;
};

/** The link an invitation made: shown once, like a new key. */
function InviteLink({ who, url, onDone }: { who: string; url: string; onDone: () => void }) {
  return (
    <section class="card reveal" aria-labelledby="invite-title">
      <h2 id="invite-title">Invitation for {who}</h2>
      <p>Send them this link: it works once, for a day, and is shown only now.</p>
      <p class="secret">
        <code data-copy-source>{url}</code>
      </p>
      <div class="actions">
        <CopyButton text={url} label="Copy link" />
        <button type="button" class="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

/** The organization's people: invite a colleague (a one-time link), remove someone, and (owners) change roles. */
export function PeoplePage({ me }: { me: Me }) {
  const people = useLoad(() => api<{ data: Person[] }>("/people").then((r) => r.data), []);
  const { busy, error, run } = useAction(() => people.reload());
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<"member" | "admin">("member");
  const [workspace, setWorkspace] = useState(me.workspaces.find((w) => !w.is_default)?.id ?? "");
  const [invite, setInvite] = useState<{ who: string; url: string } | null>(null);

  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const res = await api<{ invite_url: string }>("/people", {
        method: "POST",
        body: { email, role, ...(name ? { name } : {}), ...(workspace ? { workspace_ids: [workspace] } : {}) },
      });
      setInvite({ who: email, url: res.invite_url });
      setEmail("");
      setName("");
    });
  };
  const newLink = (p: Person) =>
    run(async () => {
      const res = await api<{ invite_url: string }>(`/people/${encodeURIComponent(p.id)}/invite`, { method: "POST", body: {} });
      setInvite({ who: p.email ?? p.id, url: res.invite_url });
    });
  const remove = (p: Person) => {
    if (confirm(`Remove ${p.email ?? p.name ?? "this person"} from the organization? Their keys stop working at once.`))
      void run(async () => void (await api(`/people/${encodeURIComponent(p.id)}`, { method: "DELETE" })));
  };
  const changeRole = (p: Person, next: string) =>
    run(async () => void (await api(`/people/${encodeURIComponent(p.id)}`, { method: "PATCH", body: { role: next } })));

  return (
    <>
      <h1>People</h1>
      {error && <Notice kind="error">{error}</Notice>}
      {invite && <InviteLink who={invite.who} url={invite.url} onDone={() => setInvite(null)} />}
      <form class="form filters-form" onSubmit={submit} aria-label="Invite a colleague">
        <h2>Invite a colleague</h2>
        <div class="form-grid">
          <Field label="Email" type="email" value={email} onInput={setEmail} required autoComplete="off" />
          <Field label="Name" value={name} onInput={setName} />
          <Select label="Role" value={role} onChange={(v) => setRole(v as "member" | "admin")}>
            <option value="member">Member: their own keys, their workspaces</option>
            <option value="admin">Admin: everything but roles</option>
          </Select>
          <Select label="Workspace" value={workspace} onChange={setWorkspace}>
            <option value="">None yet</option>
            {me.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </Select>
        </div>
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={busy || !email}>
            Invite
          </button>
        </div>
      </form>
      <LoadState loading={people.loading && !people.data} error={people.error} what="people" />
      {people.data && (
        <div class="table-wrap">
          <table class="people">
            <thead>
              <tr>
                <th scope="col">Person</th>
                <th scope="col">Role</th>
                <th scope="col">Workspaces</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {people.data.map((p) => {
                const who = p.email ?? p.name ?? p.id;
                return (
                  <tr key={p.id}>
                    <td data-label="Person">
                      {p.name && <div>{p.name}</div>}
                      <div class={p.name ? "muted" : undefined}>{p.email ?? "no email"}</div>
                    </td>
                    <td data-label="Role">
                      {me.role === "owner" && p.role !== "owner" && p.id !== me.user_id ? (
                        <select
                          aria-label={`Role of ${who}`}
                          value={p.role}
                          disabled={busy}
                          onChange={(e) => changeRole(p, (e.currentTarget as HTMLSelectElement).value)}
                        >
                          <option value="member">member</option>
                          <option value="admin">admin</option>
                        </select>
                      ) : (
                        <span class="badge">{p.role}</span>
                      )}
                    </td>
                    <td data-label="Workspaces">{p.workspaces.length === 0 ? <span class="muted">none</span> : p.workspaces.map((w) => w.name).join(", ")}</td>
                    <td data-label="Status">{p.signed_up ? <span class="badge badge-ok">Active</span> : <span class="badge badge-warn">Invited</span>}</td>
                    <td class="row-actions">
                      {!p.signed_up && p.email && (
                        <button type="button" class="button button-small" disabled={busy} onClick={() => newLink(p)} aria-label={`New invite link for ${who}`}>
                          New link
                        </button>
                      )}
                      {p.role !== "owner" && p.id !== me.user_id && (
                        <button type="button" class="button button-small button-danger" disabled={busy} onClick={() => remove(p)} aria-label={`Remove ${who}`}>
                          Remove
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
