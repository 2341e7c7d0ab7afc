import { useId, useState } from "preact/hooks";
import { apiStream } from "../api";
import { Field, TextArea } from "../components/field";
import { count } from "../format";
import { AnswerFacts, counted, type KindFormProps, useRun } from "./playground-common";

/** a file's bytes as base64, a slice at a time (String.fromCharCode takes only so many arguments) */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const extensionOf = (name: string): string => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";

type TranscriptionAnswer = { text: string; usage: { seconds: number; cost: number } };

/** An audio file (of a format the model takes) to a transcription model: the text, the seconds billed, the cost, the generation. */
export function TranscriptionForm({ model, keyHash }: KindFormProps) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [language, setLanguage] = useState("");
  const { run, running, start } = useRun<TranscriptionAnswer>();
  const formats = model.input_formats ?? [];

  const send = (e: Event) => {
    e.preventDefault();
    if (!file) return;
    void start(async () => {
      const res = await apiStream("/playground/transcriptions", {
        key_hash: keyHash,
        model: model.id,
        input_audio: { data: await base64Of(file), format: extensionOf(file.name) },
        ...(language ? { language } : {}),
      });
      const answer = (await res.json()) as TranscriptionAnswer;
      return { answer, cost: answer.usage.cost, generation: res.headers.get("x-generation-id") };
    });
  };

  return (
    <>
      <form class="form filters-form" onSubmit={send} aria-label="Transcription request">
        <div class="form-grid">
          <div class="field">
            <label for={fileId}>Audio file</label>
            <input
              id={fileId}
              type="file"
              accept={formats.map((f) => `.${f}`).join(",")}
              aria-describedby={`${fileId}-hint`}
              onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
            />
            <small id={`${fileId}-hint`}>{formats.join(", ")}</small>
          </div>
          <Field label="Language" value={language} onInput={setLanguage} placeholder="optional, e.g. en" />
        </div>
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={running || !file || !keyHash}>
            {running ? "Transcribing…" : "Transcribe"}
          </button>
        </div>
      </form>
      {(run.answer || run.error) && (
        <section class="card" aria-label="Transcript">
          <h2>Transcript</h2>
          {run.answer && <pre class="content">{run.answer.text}</pre>}
          <AnswerFacts cost={run.cost} generation={run.generation} error={run.error}>
            {run.answer && <span>{count(run.answer.usage.seconds)} s of audio</span>}
          </AnswerFacts>
        </section>
      )}
    </>
  );
}

type RerankAnswer = { results: Array<{ index: number; relevance_score: number; document: { text: string } }>; usage: { search_units: number; cost: number } };

/** A query and documents (one a line) to a rerank model: the documents most relevant first, with their scores. */
export function RerankForm({ model, keyHash }: KindFormProps) {
  const [query, setQuery] = useState("");
  const [documents, setDocuments] = useState("");
  const { run, running, start } = useRun<RerankAnswer>();
  const lines = documents.split("\n").filter((l) => l.trim() !== "");

  const send = (e: Event) => {
    e.preventDefault();
    void start(async () => {
      const res = await apiStream("/playground/rerank", { key_hash: keyHash, model: model.id, query, documents: lines });
      const answer = (await res.json()) as RerankAnswer;
      return { answer, cost: answer.usage.cost, generation: res.headers.get("x-generation-id") };
    });
  };

  return (
    <>
      <form class="form filters-form" onSubmit={send} aria-label="Rerank request">
        <Field label="Query" value={query} onInput={setQuery} />
        <TextArea label="Documents" value={documents} onInput={setDocuments} rows={5} hint={`one a line; at most ${count(model.max_documents ?? 1000)}`} />
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={running || !query || lines.length === 0 || !keyHash}>
            {running ? "Ranking…" : "Rank"}
          </button>
        </div>
      </form>
      {(run.answer || run.error) && (
        <section class="card" aria-label="Ranking">
          <h2>Ranking</h2>
          {run.answer && (
            <ol class="ranking">
              {run.answer.results.map((r) => (
                <li key={r.index}>
                  <span class="score">{r.relevance_score.toFixed(4)}</span> <span class="doc">{r.document.text}</span>{" "}
                  <span class="muted">(document {r.index + 1})</span>
                </li>
              ))}
            </ol>
          )}
          <AnswerFacts cost={run.cost} generation={run.generation} error={run.error}>
            {run.answer && <span>{counted(run.answer.usage.search_units, "search unit")}</span>}
          </AnswerFacts>
        </section>
      )}
    </>
  );
}
