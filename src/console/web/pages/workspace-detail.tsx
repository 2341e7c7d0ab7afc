import { useState } from "preact/hooks";
import { api } from "../api";
import { useAction } from "../components/action";
import { CopyButton } from "../components/copy-button";
import { Field, Select } from "../components/field";
import { useLoad } from "../components/load";
import { Notice } from "../components/notice";
import { usd } from "../format";
import { href } from "../router";
import type { Me } from "../types";
import { thresholdsFromText } from "./key-form";

type Member = { user_id: string; role: string; email: string | null; name: string | null; guardrail: { id: string; name: string } | null };
type Budget = { interval: string; limit_usd: number; usage_usd: number; alert_thresholds: number[] | null };
export type Workspace = {
  id: string;
  name: string;
  slug: string;
  webhook_url: string | null;
  is_observability_broadcast_enabled: boolean;
  is_observability_io_logging_enabled: boolean;
  io_logging_sampling_rate: number;
};

/** The workspace's two observability switches: forwarding to its destinations, and keeping prompts and completions. */
function ObservabilitySwitches({ me, ws, busy, run }: { me: Me; ws: Workspace; busy: boolean; run: (work: () => Promise<void>) => Promise<void> }) {
  // each switch shows its new state at once; a refused change puts it back
  const [shown, setShown] = useState({
    is_observability_broadcast_enabled: ws.is_observability_broadcast_enabled,
    is_observability_io_logging_enabled: ws.is_observability_io_logging_enabled,
  });
  const patch = (body: Partial<typeof shown>) => {
    const before = shown;
    setShown({ ...shown, ...body });
    return run(async () => {
      try {
        await api(`/workspaces/${ws.id}`, { method: "PATCH", body });
      } catch (err) {
        setShown(before);
        throw err;
      }
    });
  };
  return (
    <>
      <h3>Observability</h3>
      <fieldset class="checks switches">
        <legend class="sr-only">Observability switches</legend>
        <label class="check">
          <input
            type="checkbox"
            checked={shown.is_observability_broadcast_enabled}
            disabled={!me.manages || busy}
            onChange={(e) => patch({ is_observability_broadcast_enabled: (e.currentTarget as HTMLInputElement).checked })}
          />
          <span>
            Forward generations to the workspace's observability destinations <small>(broadcast: nothing is sent while it is off)</small>
          </span>
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={shown.is_observability_io_logging_enabled}
            disabled={!me.manages || busy}
            onChange={(e) => patch({ is_observability_io_logging_enabled: (e.currentTarget as HTMLInputElement).checked })}
          />
          <span>
            Keep prompts and completions <small>(I/O logging, {Math.round(ws.io_logging_sampling_rate * 100)}% of sessions; read on a generation's page)</small>
          </span>
        </label>
      </fieldset>
    </>
  );
}

/** One workspace: its members, budgets and webhook settings; changes for managers only. */
export function WorkspaceDetail({ me, ws, onChanged }: { me: Me; ws: Workspace; onChanged: () => void }) {
  const members = useLoad(() => api<{ data: Member[] }>(`/workspaces/${ws.id}/members`).then((r) => r.data), [ws.id]);
  const budgets = useLoad(() => api<{ data: Budget[] }>(`/workspaces/${ws.id}/budgets`).then((r) => r.data), [ws.id]);
  const users = useLoad(() => (me.manages ? api<{ data: Array<{ id: string; email: string }> }>("/users").then((r) => r.data) : Promise.resolve([])), []);
  const reload = () => {
    members.reload();
    budgets.reload();
    onChanged();
  };
  const { busy, error, run } = useAction(reload);
  const [newMember, setNewMember] = useState("");
  const [interval, setInterval] = useState("monthly");
  const [limit, setLimit] = useState("");
  const [webhook, setWebhook] = useState(ws.webhook_url ?? "");
  const [secret, setSecret] = useState<string | null>(null);
  const [alerts, setAlerts] = useState("");
  const email = (id: string) => {
    const m = members.data?.find((x) => x.user_id === id);
    return m?.email ?? m?.name ?? users.data?.find((u) => u.id === id)?.email ?? "someone without an email";
  };
  return (
    <section class="card" aria-label={`Workspace ${ws.name}`}>
      <h2>
        {ws.name} <span class="muted">({ws.slug})</span>
      </h2>
      {error && <Notice kind="error">{error}</Notice>}
      <h3>Members</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Role</th>
            {me.manages && (
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {(members.data ?? []).map((m) => (
            <tr key={m.user_id}>
              <td>
                <span class="break">{email(m.user_id)}</span>
                {/* under the address, not a column of its own: at 375 px a fourth column would break the address mid-word */}
                <small class="block muted">Guardrail: {m.guardrail ? <a href={href("guardrails")}>{m.guardrail.name}</a> : "none"}</small>
              </td>
              <td>{m.role}</td>
              {me.manages && (
                <td class="row-actions">
                  <button
                    type="button"
                    class="button button-small button-danger"
                    disabled={busy}
                    onClick={() =>
                      run(async () => void (await api(`/workspaces/${ws.id}/members/remove`, { method: "POST", body: { user_ids: [m.user_id] } })))
                    }
                    aria-label={`Remove ${email(m.user_id)}`}
                  >
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
          {members.data?.length === 0 && (
            <tr>
              <td colSpan={3} class="empty">
                No members
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {me.manages && (
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (newMember) void run(async () => void (await api(`/workspaces/${ws.id}/members/add`, { method: "POST", body: { user_ids: [newMember] } })));
          }}
        >
          <div class="form-grid">
            <Select label="Add a member" value={newMember} onChange={setNewMember}>
              <option value="">Choose a user</option>
              {(users.data ?? []).map((u) => (
                <option key={u.id} value={u.id}>
                  {u.email || u.id}
                </option>
              ))}
            </Select>
          </div>
          <div class="actions">
            <button type="submit" class="button" disabled={busy || !newMember}>
              Add member
            </button>
          </div>
        </form>
      )}
      <h3>Budgets</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Interval</th>
            <th scope="col" class="num">
              Limit
            </th>
            <th scope="col" class="num">
              Used
            </th>
            {me.manages && (
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {(budgets.data ?? []).map((b) => (
            <tr key={b.interval}>
              <td>{b.interval}</td>
              <td class="num">{usd(b.limit_usd)}</td>
              <td class="num">
                {usd(b.usage_usd)}
                {b.alert_thresholds ? <small class="muted"> · alerts at {b.alert_thresholds.map((t) => `${Math.round(t * 100)}%`).join(", ")}</small> : null}
              </td>
              {me.manages && (
                <td class="row-actions">
                  <button
                    type="button"
                    class="button button-small button-danger"
                    disabled={busy}
                    onClick={() => run(async () => void (await api(`/workspaces/${ws.id}/budgets/${b.interval}`, { method: "DELETE" })))}
                    aria-label={`Delete the ${b.interval} budget`}
                  >
                    Delete
                  </button>
                </td>
              )}
            </tr>
          ))}
          {budgets.data?.length === 0 && (
            <tr>
              <td colSpan={4} class="empty">
                No budgets
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {me.manages && (
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            void run(
              async () =>
                void (await api(`/workspaces/${ws.id}/budgets/${interval}`, {
                  method: "PUT",
                  body: { limit_usd: Number(limit), alert_thresholds: thresholdsFromText(alerts) },
                })),
            );
          }}
        >
          <div class="form-grid">
            <Select label="Budget interval" value={interval} onChange={setInterval}>
              {["daily", "weekly", "monthly", "lifetime"].map((i) => (
                <option key={i} value={i}>
                  {i}
                </option>
              ))}
            </Select>
            <Field label="Budget (USD)" type="number" min="0" step="0.01" value={limit} onInput={setLimit} required />
            <Field
              label="Budget alerts (% of the budget)"
              value={alerts}
              onInput={setAlerts}
              placeholder="50, 80, 100"
              hint="A webhook when the spend reaches each, once per window"
            />
          </div>
          <div class="actions">
            <button type="submit" class="button" disabled={busy}>
              Set budget
            </button>
          </div>
        </form>
      )}
      <ObservabilitySwitches me={me} ws={ws} busy={busy} run={run} />
      <h3>Webhooks</h3>
      {me.manages ? (
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => void (await api(`/workspaces/${ws.id}`, { method: "PATCH", body: { webhook_url: webhook || null } })));
          }}
        >
          <div class="form-grid">
            <Field label="Default webhook URL" type="url" value={webhook} onInput={setWebhook} placeholder="https://example.com/hooks" />
          </div>
          <div class="actions">
            <button type="submit" class="button" disabled={busy}>
              Save URL
            </button>
            <button
              type="button"
              class="button"
              disabled={busy}
              onClick={() =>
                run(async () => setSecret((await api<{ data: { secret: string } }>(`/workspaces/${ws.id}/webhook-secret`, { method: "POST" })).data.secret))
              }
            >
              Rotate signing secret
            </button>
          </div>
        </form>
      ) : (
        <p>Default webhook URL: {ws.webhook_url ?? "none"}</p>
      )}
      {secret && (
        <div class="reveal card">
          <p>New signing secret (shown once; the previous one keeps signing for a while):</p>
          <p class="secret">
            <code data-copy-source>{secret}</code>
          </p>
          <CopyButton text={secret} label="Copy secret" />
        </div>
      )}
    </section>
  );
}
