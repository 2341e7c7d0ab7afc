import { useState } from "preact/hooks";
import { ApiFailure, api, apiStream } from "../api";
import { Select, TextArea } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import { count, usd } from "../format";
import { href } from "../router";
import { type ChatStreamState, readChatStream } from "../sse-text";
import type { Key, Me } from "../types";

type ModelRow = { id: string; available: boolean };

/** Send a prompt to a model with one of your keys, watch the answer stream in, see what it cost and open its generation. */
export function PlaygroundPage({ me }: { me: Me }) {
  const models = useLoad(() => api<{ data: ModelRow[] }>("/models").then((r) => r.data.filter((m) => m.available).map((m) => m.id)), []);
  const keys = useLoad(
    () =>
      api<{ data: Key[] }>("/keys").then((r) =>
        r.data.filter((k) => !k.is_management && !k.disabled && (me.manages ? true : k.creator_user_id === me.user_id)),
      ),
    [],
  );
  const [model, setModel] = useState("");
  const [keyHash, setKeyHash] = useState("");
  const [prompt, setPrompt] = useState("");
  const [state, setState] = useState<ChatStreamState | null>(null);
  const [generation, setGeneration] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const chosenModel = model || models.data?.[0] || "";
  const chosenKey = keyHash || keys.data?.[0]?.hash || "";

  const send = async (e: Event) => {
    e.preventDefault();
    setRunning(true);
    setError(null);
    setState(null);
    setGeneration(null);
    try {
      const res = await apiStream("/playground", { key_hash: chosenKey, model: chosenModel, prompt });
      setGeneration(res.headers.get("x-generation-id"));
      const end = await readChatStream(res.body!, setState);
      if (end.error) setError(end.error);
    } catch (err) {
      setError(err instanceof ApiFailure || err instanceof Error ? err.message : String(err));
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      <h1>Playground</h1>
      <LoadState loading={(models.loading || keys.loading) && !(models.data && keys.data)} error={models.error ?? keys.error} what="models and keys" />
      {models.data && keys.data && keys.data.length === 0 && (
        <Notice kind="error">You have no enabled inference key: create one on the Keys page first.</Notice>
      )}
      {models.data && keys.data && (
        <form class="form filters-form" onSubmit={send} aria-label="Playground">
          <div class="form-grid">
            <Select label="Model" value={chosenModel} onChange={setModel}>
              {models.data.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </Select>
            <Select label="Key" value={chosenKey} onChange={setKeyHash}>
              {keys.data.map((k) => (
                <option key={k.hash} value={k.hash}>
                  {k.name}
                </option>
              ))}
            </Select>
          </div>
          <TextArea label="Prompt" value={prompt} onInput={setPrompt} rows={5} />
          <div class="actions">
            <button type="submit" class="button button-primary" disabled={running || !prompt || !chosenKey || !chosenModel}>
              {running ? "Streaming…" : "Send"}
            </button>
          </div>
        </form>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      {(state || running) && (
        <section class="card" aria-label="Answer">
          <h2>Answer</h2>
          <pre class="content" aria-live="polite">
            {state?.text ?? ""}
          </pre>
          {!running && state && (
            <p class="answer-facts">
              {state.cost !== null && <span>Cost {usd(state.cost)}</span>}
              {state.promptTokens !== null && (
                <span>
                  {" "}
                  · {count(state.promptTokens)} prompt and {count(state.completionTokens ?? 0)} completion tokens
                </span>
              )}
              {generation && (
                <>
                  {" "}
                  · <a href={href("generations", generation)}>Open its generation</a>
                </>
              )}
            </p>
          )}
        </section>
      )}
    </>
  );
}
