/**
 * A job worker thread (see src/jobs/worker-main.ts). An entrypoint of `bun build --compile`
 * (scripts/build.ts), so the compiled binary can start it.
 */
import { runJobWorker } from "../jobs/worker-main";
import type { FromWorker, ToWorker } from "../jobs/worker-protocol";

declare const self: Worker;

const handle = runJobWorker((message: FromWorker) => self.postMessage(message));
self.onmessage = (event: MessageEvent<ToWorker>) => void handle(event.data);
