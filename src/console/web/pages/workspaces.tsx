import { useState } from "preact/hooks";
import { api } from "../api";
import { useAction } from "../components/action";
import { Field } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import type { Me } from "../types";
import { type Workspace, WorkspaceDetail } from "./workspace-detail";

/** Workspaces: create one (managers), pick one to see its members, budgets and webhooks. */
export function WorkspacesPage({ me }: { me: Me }) {
  const list = useLoad(() => api<{ data: Workspace[] }>("/workspaces").then((r) => r.data), []);
  const [open, setOpen] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const { busy, error, run } = useAction(list.reload);
  const selected = list.data?.find((w) => w.id === (open ?? list.data?.[0]?.id));
  return (
    <>
      <h1>Workspaces</h1>
      {error && <Notice kind="error">{error}</Notice>}
      {me.manages && (
        <form
          class="form card"
          aria-label="New workspace"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              await api("/workspaces", { method: "POST", body: { name, slug } });
              setName("");
              setSlug("");
            });
          }}
        >
          <h2>New workspace</h2>
          <div class="form-grid">
            <Field label="Name" value={name} onInput={setName} required />
            <Field label="Slug" value={slug} onInput={setSlug} required hint="lower-case letters, digits and dashes" />
          </div>
          <div class="actions">
            <button type="submit" class="button button-primary" disabled={busy}>
              Create workspace
            </button>
          </div>
        </form>
      )}
      <LoadState loading={list.loading && !list.data} error={list.error} what="workspaces" />
      {list.data && (
        <nav class="tabs" aria-label="Workspaces">
          {list.data.map((w) => (
            <button type="button" key={w.id} class="button" aria-pressed={w.id === selected?.id} onClick={() => setOpen(w.id)}>
              {w.name}
            </button>
          ))}
        </nav>
      )}
      {selected && <WorkspaceDetail key={selected.id} me={me} ws={selected} onChanged={list.reload} />}
    </>
  );
}
