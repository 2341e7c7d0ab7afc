import type { ComponentChildren } from "preact";

/** An error or a confirmation, read out by screen readers when it appears. */
export function Notice({ kind, children }: { kind: "error" | "ok" | "warn"; children: ComponentChildren }) {
  return (
    <p class={`notice notice-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

/** what a page shows while its data loads or when it failed; null once there is data */
export function LoadState({ loading, error, what }: { loading: boolean; error: string | undefined; what: string }) {
  if (error) return <Notice kind="error">{error}</Notice>;
  if (loading) return <Loading what={what} />;
  return null;
}
