import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
// the Playground's model rows are the server's own (a type import: nothing of the server is bundled)
import type { PlaygroundModel } from "../../playground-models";
import { ApiFailure } from "../api";
import { Notice } from "../components/notice";
import { count, usdExact } from "../format";
import { href } from "../router";

export type { PlaygroundModel };

export type KindFormProps = { model: PlaygroundModel; keyHash: string };

/** "1 image", "2 images" */
export const counted = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`;

export const failureText = (err: unknown): string => (err instanceof ApiFailure || err instanceof Error ? err.message : String(err));

/** Under an answer: what went wrong, what it cost, what else is worth saying, and a link to its generation. */
export function AnswerFacts({
  cost,
  generation,
  error,
  children,
}: {
  cost: number | null;
  generation: string | null;
  error?: string | null;
  children?: ComponentChildren;
}) {
  return (
    <>
      {error && <Notice kind="error">{error}</Notice>}
      <p class="answer-facts">
        {cost !== null && <span>Cost {usdExact(cost)}</span>}
        {children}
        {generation && <a href={href("generations", generation)}>Open its generation</a>}
      </p>
    </>
  );
}

/** One request of a form and its outcome: the answer, what it cost, its generation, or what went wrong. */
export type Run<T> = { answer: T | null; cost: number | null; generation: string | null; error: string | null };

const IDLE: Run<never> = { answer: null, cost: null, generation: null, error: null };

/** A form's request in flight and its outcome; `start` clears the last one, runs the request and keeps what it made or the error. */
export function useRun<T>(): { run: Run<T>; running: boolean; start: (request: () => Promise<Omit<Run<T>, "error">>) => Promise<void> } {
  const [run, setRun] = useState<Run<T>>(IDLE);
  const [running, setRunning] = useState(false);
  const start = async (request: () => Promise<Omit<Run<T>, "error">>) => {
    setRunning(true);
    setRun(IDLE);
    try {
      setRun({ ...(await request()), error: null });
    } catch (err) {
      setRun({ ...IDLE, error: failureText(err) });
    } finally {
      setRunning(false);
    }
  };
  return { run, running, start };
}
