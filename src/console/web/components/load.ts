import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiFailure } from "../api";

export type Loaded<T> = { data?: T; error?: string; loading: boolean; reload: () => void };

/** Runs `load` when `deps` change (and on reload), keeping the last answer or error. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (err: unknown) => live && setState({ error: err instanceof ApiFailure || err instanceof Error ? err.message : String(err), loading: false }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}
