/** What Bun hands a `type: "direct"` stream's pull: writes go straight to the consumer (the HTTP response, here). */
type DirectSink = { write(chunk: string | Uint8Array): unknown; flush(): unknown; close(): unknown };

/**
 * The client-facing side of a streamed answer, and the one place that knows whether the client
 * is still there: it writes, closes, and aborts `signal` when the client goes away (the request
 * is aborted or the body is cancelled). Upstream calls run under that signal, so a client that
 * leaves stops the tokens nobody reads.
 *
 * The body is a Bun direct stream: each write is flushed to the response as it is made, with no
 * queue, no encoding of the text and no JavaScript pump between it and the socket (a default
 * ReadableStream cost about 15 % of the serving thread at 1,000 streams: bench/README.md).
 * What is written before the server starts sending is held and goes out first.
 */
export class ClientStream {
  readonly body: ReadableStream<Uint8Array>;
  private readonly gone = new AbortController();
  private sink: DirectSink | null = null;
  private early: (string | Uint8Array)[] = [];
  /** resolves the direct stream's pull, which Bun keeps open until then */
  private release: (() => void) | null = null;
  private closed = false;
  /** the client went away: a plain field, since every write asks (AbortSignal.aborted is a DOM getter, 3 % of a stream's serving thread) */
  private left = false;

  constructor(requestSignal: AbortSignal) {
    this.body = new ReadableStream({
      type: "direct",
      pull: (sink: DirectSink) => this.start(sink),
      cancel: () => this.leave(),
    } as unknown as UnderlyingDefaultSource<Uint8Array>);
    if (requestSignal.aborted) this.leave();
    else requestSignal.addEventListener("abort", () => this.leave(), { once: true });
  }

  /** aborted when the client has gone away */
  get signal(): AbortSignal {
    return this.gone.signal;
  }

  get open(): boolean {
    return !this.closed && !this.left;
  }

  /** false when the client is gone and the text was dropped */
  write(text: string): boolean {
    if (text === "") return this.open;
    return this.send(text);
  }

  writeBytes(chunk: Uint8Array): boolean {
    return this.send(chunk);
  }

  close(): void {
    if (!this.open) return;
    this.closed = true;
    if (this.sink) this.end();
  }

  private start(sink: DirectSink): Promise<void> | undefined {
    this.sink = sink;
    if (this.early.length > 0) {
      for (const chunk of this.early) sink.write(chunk);
      this.early = [];
      sink.flush();
    }
    if (this.closed || this.left) {
      sink.close();
      return undefined;
    }
    return new Promise<void>((resolve) => (this.release = resolve));
  }

  private send(chunk: string | Uint8Array): boolean {
    if (!this.open) return false;
    if (!this.sink) {
      this.early.push(chunk);
      return true;
    }
    try {
      this.sink.write(chunk);
      this.sink.flush();
      return true;
    } catch {
      this.leave();
      return false;
    }
  }

  private end(): void {
    try {
      this.sink?.close();
    } catch {
      // the consumer is gone already
    }
    this.release?.();
    this.release = null;
  }

  private leave(): void {
    if (this.left) return;
    this.left = true;
    this.gone.abort(new DOMException("the client went away", "AbortError"));
    if (this.sink) this.end();
  }
}
