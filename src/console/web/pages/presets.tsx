import { useState } from "preact/hooks";
import { api } from "../api";
import { Select } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState } from "../components/notice";
import { WorkspacePicker } from "../components/workspace-picker";
import { lineDiff } from "../diff";
import { when } from "../format";
import type { Me } from "../types";

type Preset = { slug: string; name?: string; updated_at?: string };
type Version = { version: number; config: Record<string, unknown>; system_prompt: string | null; created_at: string };

const shown = (v: Version) => JSON.stringify({ system_prompt: v.system_prompt, ...v.config }, null, 2);

/** A workspace's presets, one preset's versions, and the diff between two of them. */
export function PresetsPage({ me }: { me: Me }) {
  const [workspace, setWorkspace] = useState(me.workspaces[0]?.id ?? "");
  const [slug, setSlug] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const presets = useLoad(() => api<{ data: Preset[] }>(`/presets?workspace_id=${workspace}`).then((r) => r.data), [workspace]);
  const versions = useLoad(
    () =>
      slug ? api<{ data: Version[] }>(`/presets/${encodeURIComponent(slug)}/versions?workspace_id=${workspace}`).then((r) => r.data) : Promise.resolve([]),
    [workspace, slug],
  );
  const a = versions.data?.find((v) => String(v.version) === from);
  const b = versions.data?.find((v) => String(v.version) === to);
  return (
    <>
      <div class="page-head">
        <h1>Presets</h1>
        <div class="filters">
          <WorkspacePicker
            me={me}
            value={workspace}
            onChange={(id) => {
              setWorkspace(id);
              setSlug("");
            }}
          />
        </div>
      </div>
      <LoadState loading={presets.loading && !presets.data} error={presets.error} what="presets" />
      {presets.data && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Preset</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {presets.data.map((p) => (
                <tr key={p.slug}>
                  <td>{p.slug}</td>
                  <td>{when(p.updated_at)}</td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="button button-small"
                      aria-pressed={slug === p.slug}
                      onClick={() => {
                        setSlug(p.slug);
                        setFrom("");
                        setTo("");
                      }}
                    >
                      Versions
                    </button>
                  </td>
                </tr>
              ))}
              {presets.data.length === 0 && (
                <tr>
                  <td colSpan={3} class="empty">
                    No presets in this workspace
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {slug && versions.data && (
        <section class="card" aria-label={`Versions of ${slug}`}>
          <h2>Versions of {slug}</h2>
          <div class="form-grid">
            <Select label="From version" value={from} onChange={setFrom}>
              <option value="">Choose</option>
              {versions.data.map((v) => (
                <option key={v.version} value={String(v.version)}>
                  {v.version} · {when(v.created_at)}
                </option>
              ))}
            </Select>
            <Select label="To version" value={to} onChange={setTo}>
              <option value="">Choose</option>
              {versions.data.map((v) => (
                <option key={v.version} value={String(v.version)}>
                  {v.version} · {when(v.created_at)}
                </option>
              ))}
            </Select>
          </div>
          {a && b ? (
            <figure aria-label={`Changes from version ${a.version} to ${b.version}`}>
              <pre class="diff">
                {lineDiff(shown(a), shown(b)).map((l, i) => (
                  <span key={i} class={l.kind}>
                    {l.kind === "add" ? "+ " : l.kind === "del" ? "- " : "  "}
                    {l.text}
                  </span>
                ))}
              </pre>
            </figure>
          ) : (
            <p class="muted">Choose two versions to see what changed.</p>
          )}
        </section>
      )}
    </>
  );
}
