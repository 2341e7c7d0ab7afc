import { listenAddress } from "../config";

type Env = Record<string, string | undefined>;
type Out = (line: string) => void;

/** How long `gateway healthcheck` waits for the answer of /health. */
export const HEALTHCHECK_TIMEOUT_MS = 2_000;

/** Where a server listening on `host` answers: an any-address listener is reached on loopback. */
export function healthUrl(host: string, port: number): string {
  const target = host === "0.0.0.0" ? "127.0.0.1" : host === "::" || host === "[::]" ? "::1" : host;
  return `http://${target.includes(":") && !target.startsWith("[") ? `[${target}]` : target}:${port}/health`;
}

/**
 * `gateway healthcheck`: the container image's health check (it has no curl). The exit code is
 * what a container engine reads: 0 when GET /health on HOST and PORT answers 200 within 2 s, 1
 * otherwise, a bad HOST or PORT included (Docker reserves 2: docs.docker.com, Dockerfile
 * reference, HEALTHCHECK). Only HOST and PORT are read, so a gateway.yaml that changed on disk
 * does not make a running server unhealthy.
 */
export async function healthcheckCommand(env: Env, out: Out, err: Out): Promise<0 | 1> {
  let url: string;
  try {
    const { host, port } = listenAddress(env);
    url = healthUrl(host, port);
  } catch (error) {
    err(`unhealthy: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  try {
    const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(HEALTHCHECK_TIMEOUT_MS) });
    await res.body?.cancel();
    if (res.status === 200) {
      out(`healthy: ${url} answered 200`);
      return 0;
    }
    err(`unhealthy: ${url} answered ${res.status}`);
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${HEALTHCHECK_TIMEOUT_MS} ms`
        : error instanceof Error
          ? error.message
          : String(error);
    err(`unhealthy: ${url}: ${reason}`);
  }
  return 1;
}
