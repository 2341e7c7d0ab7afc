import { useState } from "preact/hooks";
import { api } from "../api";
import { useAction } from "../components/action";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import { WorkspacePicker } from "../components/workspace-picker";
import { when } from "../format";
import type { Me } from "../types";

type Job = { id: string; kind: string; attempts: number; last_error: string | null; updated_at: string };
type VideoJob = { id: string; status: string; model: string; created_at: string; error?: string };

function DeadJobs() {
  const jobs = useLoad(() => api<{ data: Job[] }>("/jobs?state=dead&limit=100").then((r) => r.data), []);
  const { busy, error, run } = useAction(jobs.reload);
  return (
    <section class="card">
      <h2>Dead jobs</h2>
      {error && <Notice kind="error">{error}</Notice>}
      <LoadState loading={jobs.loading && !jobs.data} error={jobs.error} what="dead jobs" />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col" class="num">
                Attempts
              </th>
              <th scope="col">Last error</th>
              <th scope="col">Died</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(jobs.data ?? []).map((j) => (
              <tr key={j.id}>
                <td>{j.kind}</td>
                <td class="num">{j.attempts}</td>
                <td class="break">{j.last_error ?? "—"}</td>
                <td>{when(j.updated_at)}</td>
                <td class="row-actions">
                  <button
                    type="button"
                    class="button button-small"
                    disabled={busy}
                    onClick={() => run(async () => void (await api(`/jobs/${encodeURIComponent(j.id)}/retry`, { method: "POST" })))}
                    aria-label={`Retry ${j.kind} job ${j.id}`}
                  >
                    Retry
                  </button>
                </td>
              </tr>
            ))}
            {jobs.data?.length === 0 && (
              <tr>
                <td colSpan={5} class="empty">
                  No dead jobs
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Background work: a workspace's video jobs, and (managers) dead jobs with their retry. */
export function JobsPage({ me }: { me: Me }) {
  const [workspace, setWorkspace] = useState(me.workspaces[0]?.id ?? "");
  const videos = useLoad(
    () => (workspace ? api<{ data: VideoJob[] }>(`/videos?workspace_id=${workspace}`).then((r) => r.data) : Promise.resolve([])),
    [workspace],
  );
  return (
    <>
      <h1>Jobs</h1>
      {me.manages && <DeadJobs />}
      <section class="card">
        <div class="page-head">
          <h2>Video jobs</h2>
          <div class="filters">
            <WorkspacePicker me={me} value={workspace} onChange={setWorkspace} />
          </div>
        </div>
        <LoadState loading={videos.loading && !videos.data} error={videos.error} what="video jobs" />
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {(videos.data ?? []).map((v) => (
                <tr key={v.id}>
                  <td class="break">{v.id}</td>
                  <td>{v.model}</td>
                  <td>
                    {v.status}
                    {v.error ? `: ${v.error}` : ""}
                  </td>
                  <td>{when(v.created_at)}</td>
                </tr>
              ))}
              {videos.data?.length === 0 && (
                <tr>
                  <td colSpan={4} class="empty">
                    No video jobs
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
