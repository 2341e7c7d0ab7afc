import { useState } from "preact/hooks";
import { api } from "../api";
import { Select } from "../components/field";
import { useLoad } from "../components/load";
import { LoadState, Notice } from "../components/notice";
import type { Key, Me } from "../types";
import { ChatForm } from "./playground-chat";
import type { PlaygroundModel } from "./playground-common";
import { ImageForm, SpeechForm } from "./playground-media";
import { RerankForm, TranscriptionForm } from "./playground-media-in";

const KIND_GROUPS: Array<{ kind: PlaygroundModel["kind"]; label: string }> = [
  { kind: "chat", label: "Chat" },
  { kind: "image", label: "Images" },
  { kind: "speech", label: "Speech (text to speech)" },
  { kind: "transcription", label: "Transcription (speech to text)" },
  { kind: "rerank", label: "Rerank" },
];

/**
 * Try any model a key can be served by, with one of your keys: a chat prompt streamed, images
 * generated and shown, text spoken and played, audio transcribed, documents ranked. Each goes
 * through the gateway's own operation; what it cost and its generation follow the answer.
 */
export function PlaygroundPage({ me }: { me: Me }) {
  const models = useLoad(() => api<{ data: PlaygroundModel[] }>("/playground/models").then((r) => r.data.filter((m) => m.available)), []);
  const keys = useLoad(
    () =>
      api<{ data: Key[] }>("/keys").then((r) =>
        r.data.filter((k) => !k.is_management && !k.disabled && (me.manages ? true : k.creator_user_id === me.user_id)),
      ),
    [],
  );
  const [modelId, setModelId] = useState("");
  const [keyHash, setKeyHash] = useState("");
  const model = models.data?.find((m) => m.id === modelId) ?? models.data?.[0];
  const chosenKey = keyHash || keys.data?.[0]?.hash || "";
  const form = { model: model!, keyHash: chosenKey };

  return (
    <>
      <h1>Playground</h1>
      <LoadState loading={(models.loading || keys.loading) && !(models.data && keys.data)} error={models.error ?? keys.error} what="models and keys" />
      {models.data && keys.data && keys.data.length === 0 && (
        <Notice kind="error">You have no enabled inference key: create one on the Keys page first.</Notice>
      )}
      {models.data && models.data.length === 0 && <Notice kind="warn">No model can be served: no provider has a key.</Notice>}
      {models.data && keys.data && model && (
        <>
          <div class="form filters-form">
            <div class="form-grid">
              <Select label="Model" value={model.id} onChange={setModelId}>
                {KIND_GROUPS.map((g) => {
                  const of = models.data!.filter((m) => m.kind === g.kind);
                  return (
                    of.length > 0 && (
                      <optgroup key={g.kind} label={g.label}>
                        {of.map((m) => (
                          <option key={m.id} value={m.id}>
                            {m.id}
                          </option>
                        ))}
                      </optgroup>
                    )
                  );
                })}
              </Select>
              <Select label="Key" value={chosenKey} onChange={setKeyHash}>
                {keys.data.map((k) => (
                  <option key={k.hash} value={k.hash}>
                    {k.name}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          {/* keyed by model: a new model starts with an empty form and no answer */}
          {model.kind === "chat" && <ChatForm key={model.id} {...form} />}
          {model.kind === "image" && <ImageForm key={model.id} {...form} />}
          {model.kind === "speech" && <SpeechForm key={model.id} {...form} />}
          {model.kind === "transcription" && <TranscriptionForm key={model.id} {...form} />}
          {model.kind === "rerank" && <RerankForm key={model.id} {...form} />}
        </>
      )}
    </>
  );
}
