import { useState } from "preact/hooks";
import { ApiFailure } from "../api";

/** Runs one change at a time, keeping its error to show and calling `done` after a success. */
export function useAction(done: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      done();
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
