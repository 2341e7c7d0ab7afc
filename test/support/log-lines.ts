/**
 * Lines of a child process's output as they arrive, so a test can wait for the one that
 * says something happened (a reload, a failed reload) instead of sleeping.
 */
export type LogLines = {
  /** every line read so far */
  lines: string[];
  /** the first line, read or still to come, that matches; rejects after `timeoutMs` */
  waitFor(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
};

export function readLines(stream: ReadableStream<Uint8Array>): LogLines {
  const lines: string[] = [];
  const waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of stream) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        lines.push(line);
        for (const w of waiters.filter((w) => w.match(line))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  })();
  return {
    lines,
    waitFor(match, timeoutMs = 10_000) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          if (!waiters.includes(waiter)) return;
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching line within ${timeoutMs} ms; got:\n${lines.join("\n")}`));
        }, timeoutMs);
      });
    },
  };
}
