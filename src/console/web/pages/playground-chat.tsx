import { useState } from "preact/hooks";
import { apiStream } from "../api";
import { TextArea } from "../components/field";
import { count } from "../format";
import { type ChatStreamState, readChatStream } from "../sse-text";
import { AnswerFacts, failureText, type KindFormProps } from "./playground-common";

/** A prompt to a chat model: the answer streams in, then what it cost and its generation. */
export function ChatForm({ model, keyHash }: KindFormProps) {
  const [prompt, setPrompt] = useState("");
  const [state, setState] = useState<ChatStreamState | null>(null);
  const [generation, setGeneration] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  const send = async (e: Event) => {
    e.preventDefault();
    setRunning(true);
    setError(null);
    setState(null);
    setGeneration(null);
    try {
      const res = await apiStream("/playground", { key_hash: keyHash, model: model.id, prompt });
      setGeneration(res.headers.get("x-generation-id"));
      const end = await readChatStream(res.body!, setState);
      if (end.error) setError(end.error);
    } catch (err) {
      setError(failureText(err));
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      <form class="form filters-form" onSubmit={send} aria-label="Chat request">
        <TextArea label="Prompt" value={prompt} onInput={setPrompt} rows={5} />
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={running || !prompt || !keyHash}>
            {running ? "Streaming…" : "Send"}
          </button>
        </div>
      </form>
      {(state || running || error) && (
        <section class="card" aria-label="Answer">
          <h2>Answer</h2>
          <pre class="content" aria-live="polite">
            {state?.text ?? ""}
          </pre>
          {!running && (state || error) && (
            <AnswerFacts cost={state?.cost ?? null} generation={generation} error={error}>
              {state?.promptTokens !== null && state?.promptTokens !== undefined && (
                <span>
                  {count(state.promptTokens)} prompt and {count(state.completionTokens ?? 0)} completion tokens
                </span>
              )}
            </AnswerFacts>
          )}
        </section>
      )}
    </>
  );
}
