/**
 * A loopback OpenAI Audio API. POST /v1/audio/speech streams audio bytes in chunks (the last one
 * can be held until the test releases it, to see the first ones arrive on their own); POST
 * /v1/audio/transcriptions reads the multipart form, keeps each field and the file's name, type,
 * size and SHA-256, and answers json (`usage: {type: "duration", seconds}`) or verbose_json.
 */
import { type MockBase, openaiError, patternBytes, startMockBase } from "./mock-base";

export type ReceivedUpload = { fields: Array<[string, string]>; file: { name: string; type: string; size: number; sha256: string } | null };

export type AudioMock = MockBase & {
  speechBodies: Array<Record<string, unknown>>;
  uploads: ReceivedUpload[];
  /** speech: bytes per chunk and chunks per answer */
  chunkBytes: number;
  chunks: number;
  /** speech: the answer's Content-Type; undefined: by response_format */
  speechContentType: string | undefined;
  /** speech: hold the last chunk until release() */
  holdLast: boolean;
  release(): void;
  /** the audio bytes an answer streams */
  speechBytes(): Uint8Array<ArrayBuffer>;
  /** transcription: the text, and the seconds usage reports (null: no usage) */
  transcript: string;
  seconds: number | null;
  /** verbose_json's duration */
  duration: number;
};

const SPEECH_TYPES: Record<string, string> = {
  mp3: "audio/mpeg",
  opus: "audio/opus",
  aac: "audio/aac",
  flac: "audio/flac",
  wav: "audio/wav",
  pcm: "audio/pcm",
};

async function sha256(blob: Blob): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(await blob.arrayBuffer());
  return hasher.digest("hex");
}

export function startAudioMock(key = "audio-key"): AudioMock {
  let releases: Array<() => void> = [];
  const speech = (body: Record<string, unknown>) => {
    const bytes = mock.speechBytes();
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === mock.chunks - 1 && mock.holdLast) await new Promise<void>((resolve) => releases.push(resolve));
        controller.enqueue(bytes.subarray(sent * mock.chunkBytes, (sent + 1) * mock.chunkBytes));
        if (++sent === mock.chunks) controller.close();
      },
    });
    const format = typeof body.response_format === "string" ? body.response_format : "mp3";
    return new Response(stream, { headers: { "content-type": mock.speechContentType ?? SPEECH_TYPES[format] ?? "application/octet-stream" } });
  };
  const transcription = async (request: Request) => {
    const form = await request.formData();
    const fields: Array<[string, string]> = [];
    let file: ReceivedUpload["file"] = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields.push([name, value]);
      else {
        const blob = value as File;
        file = { name: blob.name, type: blob.type, size: blob.size, sha256: await sha256(blob) };
      }
    }
    mock.uploads.push({ fields, file });
    const format = fields.find(([k]) => k === "response_format")?.[1] ?? "json";
    const usage = mock.seconds === null ? {} : { usage: { type: "duration", seconds: mock.seconds } };
    if (format !== "verbose_json") return Response.json({ text: mock.transcript, ...usage });
    const words = fields.some(([k, v]) => k === "timestamp_granularities[]" && v === "word");
    return Response.json({
      task: "transcribe",
      language: "english",
      duration: mock.duration,
      text: mock.transcript,
      segments: [
        {
          id: 0,
          seek: 0,
          start: 0,
          end: mock.duration,
          text: mock.transcript,
          tokens: [50364, 2425],
          temperature: 0,
          avg_logprob: -0.2,
          compression_ratio: 1.1,
          no_speech_prob: 0.01,
        },
      ],
      ...(words ? { words: mock.transcript.split(" ").map((word, i) => ({ word, start: i * 0.5, end: i * 0.5 + 0.4 })) } : {}),
      ...usage,
    });
  };
  const mock: AudioMock = {
    ...startMockBase(
      key,
      async (request, path) => {
        if (request.method === "POST" && path === "/v1/audio/speech") {
          const body = (await request.json()) as Record<string, unknown>;
          mock.speechBodies.push(body);
          return speech(body);
        }
        if (request.method === "POST" && path === "/v1/audio/transcriptions") return transcription(request);
        return Response.json(openaiError(`no route ${request.method} ${path}`), { status: 404 });
      },
      openaiError,
      "/v1",
    ),
    speechBodies: [],
    uploads: [],
    chunkBytes: 4096,
    chunks: 3,
    speechContentType: undefined,
    holdLast: false,
    release: () => {
      const waiting = releases;
      releases = [];
      for (const resolve of waiting) resolve();
    },
    speechBytes: () => patternBytes(mock.chunkBytes * mock.chunks, 3),
    transcript: "The quick brown fox jumps over the lazy dog.",
    seconds: 12,
    duration: 12.5,
  };
  return mock;
}
