/** Inline images and files travel as `data:` URLs in the OpenAI formats; the IR keeps media type and base64 apart. */

const DATA_URL = /^data:([^;,]*)((?:;[^;,=]+=[^;,]*)*);base64,(.*)$/s;

export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] || "application/octet-stream", data: match[3] ?? "" };
}

export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
