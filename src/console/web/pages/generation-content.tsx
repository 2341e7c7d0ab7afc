import { ApiFailure, api } from "../api";
import { useLoad } from "../components/load";
import { LoadState } from "../components/notice";
import type { GenerationContentOut } from "../types";

type Content = GenerationContentOut["data"];
type Message = { role?: unknown; content?: unknown };

/** a message's content as text: a string as it is, content parts (text, images, tool calls) as JSON */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.every((p) => typeof p === "object" && p !== null && (p as { type?: unknown }).type === "text"))
    return content.map((p) => String((p as { text?: unknown }).text ?? "")).join("\n");
  return JSON.stringify(content, null, 2);
}

function Prompt({ input }: { input: Content["input"] }) {
  if ("prompt" in input) return <pre class="content">{input.prompt}</pre>;
  return (
    <ol class="messages">
      {(input.messages as Message[]).map((m, i) => {
        const { role, content, ...rest } = m ?? {};
        const extra = Object.keys(rest).length > 0 ? JSON.stringify(rest, null, 2) : null;
        return (
          <li key={i}>
            <span class="badge">{typeof role === "string" ? role : "message"}</span>
            <pre class="content">{contentText(content)}</pre>
            {extra && <pre class="content muted">{extra}</pre>}
          </li>
        );
      })}
    </ol>
  );
}

/** the kinds of media a completion may hold, as data URLs one a line (images, speech) */
const mediaKind = (line: string): "image" | "audio" | null => (line.startsWith("data:image/") ? "image" : line.startsWith("data:audio/") ? "audio" : null);

/** a completion's text; an image generation's images shown and a speech generation's audio playable, served by the console's media route */
function Completion({ id, text }: { id: string; text: string }) {
  const lines = text.split("\n");
  const kinds = lines.map(mediaKind);
  if (kinds.some((k) => k === null)) return <pre class="content">{text}</pre>;
  const src = (i: number) => `/console/api/generations/${encodeURIComponent(id)}/media/${i}`;
  return (
    <div class="media">
      {kinds.map((kind, i) =>
        kind === "image" ? (
          <img key={i} src={src(i)} alt={`Output ${i + 1} of this generation`} />
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: generated speech has no caption track; its text is the request's input, shown above
          <audio key={i} controls src={src(i)} aria-label="Generated speech" />
        ),
      )}
    </div>
  );
}

/** "not kept" is an answer here, not a failure: I/O logging off, sampled out or pruned */
async function loadContent(id: string): Promise<Content | null> {
  try {
    return (await api<{ data: Content }>(`/generations/${encodeURIComponent(id)}/content`)).data;
  } catch (err) {
    if (err instanceof ApiFailure && err.status === 404) return null;
    throw err;
  }
}

/**
 * The prompt and completion of a generation, when the workspace's I/O logging kept them (read
 * through the service of GET /api/v1/generation/content).
 */
export function GenerationContent({ id }: { id: string }) {
  const { data, error, loading } = useLoad(() => loadContent(id), [id]);
  return (
    <section class="card" aria-labelledby="content-title">
      <h2 id="content-title">Prompt and completion</h2>
      <LoadState loading={loading && data === undefined} error={error} what="the content" />
      {data === null && <p class="muted">Not kept: the workspace's I/O logging was off or sampled this generation out, or the content has been pruned.</p>}
      {data && (
        <>
          <h3>Prompt</h3>
          <Prompt input={data.input} />
          <h3>Completion</h3>
          {data.output.completion === null ? <p class="muted">No completion text.</p> : <Completion id={id} text={data.output.completion} />}
          {data.output.reasoning !== null && (
            <details>
              <summary>Reasoning</summary>
              <pre class="content">{data.output.reasoning}</pre>
            </details>
          )}
          {data.error && (
            <>
              <h3>Error</h3>
              <p>
                {data.error.message ?? "The generation failed"}
                {data.error.status !== null ? ` (status ${data.error.status}${data.error.provider_name ? `, ${data.error.provider_name}` : ""})` : ""}
              </p>
            </>
          )}
        </>
      )}
    </section>
  );
}
