/** The console's calls to /console/api: JSON in and out, the CSRF token on every change. */

export type ApiError = { status: number; message: string; field?: string };

let csrfToken = "";

/** set once from /console/api/me; sent as x-csrf-token with every state change */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

export class ApiFailure extends Error {
  /** `reason`: what a failed connection test quotes of the destination's answer */
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = init.method ?? "GET";
  const headers: Record<string, string> = { accept: "application/json" };
  if (method !== "GET") headers["x-csrf-token"] = csrfToken;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`/console/api${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
  });
  if (res.status === 401) {
    // the session ended: sign in again and come back here
    location.href = `/login?next=${encodeURIComponent(location.pathname + location.hash)}`;
    throw new ApiFailure(401, "Signed out");
  }
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : null;
  if (!res.ok) {
    const error = (json as { error?: { message?: string; metadata?: { field?: string; reason?: unknown } } } | null)?.error;
    const reason = typeof error?.metadata?.reason === "string" ? error.metadata.reason : undefined;
    throw new ApiFailure(res.status, error?.message ?? `HTTP ${res.status}`, error?.metadata?.field, reason);
  }
  return json as T;
}

/** A POST whose answer is read as it arrives (the Playground's stream): the raw response once its status is OK. */
export async function apiStream(path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const res = await fetch(`/console/api${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", "x-csrf-token": csrfToken },
    body: JSON.stringify(body),
    credentials: "same-origin",
    signal,
  });
  if (res.ok) return res;
  const json = (await res.json().catch(() => null)) as { error?: { message?: string; metadata?: { field?: string } } } | null;
  throw new ApiFailure(res.status, json?.error?.message ?? `HTTP ${res.status}`, json?.error?.metadata?.field);
}

/** a query string of the defined, non-empty values */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}
