/** One server-sent event as text; data spanning several lines keeps one `data:` line per line, as SSE requires. */
export function sseFrame(data: string, event?: string): string {
  const body = data.includes("\n")
    ? data
        .split("\n")
        .map((line) => `data: ${line}`)
        .join("\n")
    : `data: ${data}`;
  return event === undefined ? `${body}\n\n` : `event: ${event}\n${body}\n\n`;
}
