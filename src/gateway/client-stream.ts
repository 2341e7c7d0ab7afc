const encoder = new TextEncoder();

/**
 * The client-facing side of a streamed answer, and the one place that knows whether the client
 * is still there: it writes, closes, and aborts `signal` when the client goes away (the request
 * is aborted or the body is cancelled). Upstream calls run under that signal, so a client that
 * leaves stops the tokens nobody reads.
 */
export class ClientStream {
  readonly body: ReadableStream<Uint8Array>;
  private readonly gone = new AbortController();
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private closed = false;
  /** the client went away: a plain field, since every write asks (AbortSignal.aborted is a DOM getter, 3 % of a stream's serving thread) */
  private left = false;

  constructor(requestSignal: AbortSignal) {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => this.leave(),
    });
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
    return this.writeBytes(encoder.encode(text));
  }

  writeBytes(chunk: Uint8Array): boolean {
    if (!this.open) return false;
    try {
      this.controller.enqueue(chunk);
      return true;
    } catch {
      this.leave();
      return false;
    }
  }

  close(): void {
    if (!this.open) return;
    this.closed = true;
    this.controller.close();
  }

  private leave(): void {
    if (this.left) return;
    this.left = true;
    this.gone.abort(new DOMException("the client went away", "AbortError"));
  }
}
