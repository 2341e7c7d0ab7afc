import { useEffect, useState } from "preact/hooks";
import { api, apiStream } from "../api";
import { Field, Select, TextArea } from "../components/field";
import { Notice } from "../components/notice";
import { count } from "../format";
import type { GenerationDetail } from "../types";
import { AnswerFacts, counted, type KindFormProps, useRun } from "./playground-common";

type ImageAnswer = { id: string; data: Array<{ b64_json: string; media_type: string }>; usage: { cost: number } };

/** A prompt to an image model (size, quality and how many, among what it takes): the images shown, what they cost, their generation. */
export function ImageForm({ model, keyHash }: KindFormProps) {
  const [prompt, setPrompt] = useState("");
  const [size, setSize] = useState(model.sizes?.[0] ?? "");
  const [quality, setQuality] = useState(model.qualities?.[0] ?? "");
  const [n, setN] = useState("1");
  const { run, running, start } = useRun<ImageAnswer>();

  const send = (e: Event) => {
    e.preventDefault();
    void start(async () => {
      const res = await apiStream("/playground/images", {
        key_hash: keyHash,
        model: model.id,
        prompt,
        n: Number(n),
        ...(size ? { size } : {}),
        ...(quality ? { quality } : {}),
      });
      const answer = (await res.json()) as ImageAnswer;
      return { answer, cost: answer.usage.cost, generation: res.headers.get("x-generation-id") };
    });
  };

  return (
    <>
      <form class="form filters-form" onSubmit={send} aria-label="Image request">
        <div class="form-grid">
          {model.sizes && model.sizes.length > 0 && (
            <Select label="Size" value={size} onChange={setSize}>
              {model.sizes.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </Select>
          )}
          {model.qualities && model.qualities.length > 0 && (
            <Select label="Quality" value={quality} onChange={setQuality}>
              {model.qualities.map((q) => (
                <option key={q}>{q}</option>
              ))}
            </Select>
          )}
          <Field label="Images" type="number" value={n} onInput={setN} min="1" max={String(model.max_images ?? 1)} />
        </div>
        <TextArea label="Prompt" value={prompt} onInput={setPrompt} rows={3} />
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={running || !prompt || !keyHash}>
            {running ? "Generating…" : "Generate"}
          </button>
        </div>
      </form>
      {(run.answer || run.error) && (
        <section class="card" aria-label="Images">
          <h2>Images</h2>
          {run.answer && (
            <div class="media">
              {run.answer.data.map((img, i) => (
                <img key={img.b64_json.slice(-32) + String(i)} src={`data:${img.media_type};base64,${img.b64_json}`} alt={`Output ${i + 1} for: ${prompt}`} />
              ))}
            </div>
          )}
          <AnswerFacts cost={run.cost} generation={run.generation} error={run.error}>
            {run.answer && <span>{counted(run.answer.data.length, "image")}</span>}
          </AnswerFacts>
        </section>
      )}
    </>
  );
}

type SpeechAnswer = { url: string; bytes: number; type: string };

/**
 * Text to a speech model (a voice, a format an <audio> element plays): the audio as it came back,
 * playable, and its cost, which only the generation's record holds (the stream ended once it was kept).
 */
export function SpeechForm({ model, keyHash }: KindFormProps) {
  const [input, setInput] = useState("");
  const [voice, setVoice] = useState(model.voices?.[0] ?? "");
  const [format, setFormat] = useState(model.response_formats?.[0] ?? "");
  const { run, running, start } = useRun<SpeechAnswer>();
  // the audio's object URL is freed when another replaces it or the form goes
  useEffect(() => () => run.answer && URL.revokeObjectURL(run.answer.url), [run.answer]);

  const send = (e: Event) => {
    e.preventDefault();
    void start(async () => {
      const res = await apiStream("/playground/speech", {
        key_hash: keyHash,
        model: model.id,
        input,
        ...(voice ? { voice } : {}),
        ...(format ? { response_format: format } : {}),
      });
      const generation = res.headers.get("x-generation-id");
      const blob = await res.blob();
      const record = generation ? await api<{ data: GenerationDetail }>(`/generations/${encodeURIComponent(generation)}`) : null;
      return { answer: { url: URL.createObjectURL(blob), bytes: blob.size, type: blob.type }, cost: record?.data.total_cost ?? null, generation };
    });
  };

  return (
    <>
      {!format && <Notice kind="warn">{model.id} answers no format a browser plays (mp3, wav, opus, aac, flac): try it through the API.</Notice>}
      <form class="form filters-form" onSubmit={send} aria-label="Speech request">
        <div class="form-grid">
          <Select label="Voice" value={voice} onChange={setVoice}>
            {(model.voices ?? []).map((v) => (
              <option key={v}>{v}</option>
            ))}
          </Select>
          <Select label="Format" value={format} onChange={setFormat}>
            {(model.response_formats ?? []).map((f) => (
              <option key={f}>{f}</option>
            ))}
          </Select>
        </div>
        <TextArea label="Text" value={input} onInput={setInput} rows={3} />
        <div class="actions">
          <button type="submit" class="button button-primary" disabled={running || !input || !keyHash || !format}>
            {running ? "Speaking…" : "Speak"}
          </button>
        </div>
      </form>
      {(run.answer || run.error) && (
        <section class="card" aria-label="Speech">
          <h2>Speech</h2>
          {run.answer && (
            <div class="media">
              {/* biome-ignore lint/a11y/useMediaCaption: generated speech has no caption track; its text is the input above */}
              <audio controls src={run.answer.url} aria-label="Generated speech" />
            </div>
          )}
          <AnswerFacts cost={run.cost} generation={run.generation} error={run.error}>
            {run.answer && (
              <span>
                {count(run.answer.bytes)} bytes of {run.answer.type || "audio"}
              </span>
            )}
          </AnswerFacts>
        </section>
      )}
    </>
  );
}
