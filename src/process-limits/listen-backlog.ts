import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { listeningPort, relisten } from "./libc";

/** What Bun.serve passes to listen(2), whatever it is asked (bun 1.4: no option reaches it). */
export const BUN_LISTEN_BACKLOG = 512;
/** listen(2) takes an int, and the kernel keeps the backlog in 32 bits; somaxconn caps it anyway. */
const MOST = 65_535;

export type ListenBacklog = { before: number; backlog: number } | null;

const readOr = (path: string, fallback: string): string => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return fallback;
  }
};

/** The descriptors of this process listening on `port` (IPv4 and IPv6), asked of each socket. */
function listeningDescriptors(port: number): number[] {
  const fds: number[] = [];
  for (const name of readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${name}`);
    } catch {
      continue; // closed since the listing (the listing's own descriptor among them)
    }
    if (target.startsWith("socket:") && listeningPort(Number(name)) === port) fds.push(Number(name));
  }
  return fds;
}

/**
 * Bun listens with a backlog of 512 completed connections waiting for accept. While the event
 * loop is busy for a moment (a collection, a burst of stream events) new connections queue
 * there; past 512 the kernel drops them, a client that had completed its handshake sends its
 * request into a connection the server no longer holds and gets a reset (bench/README.md,
 * "Many long streams": every reset at 8,000 streams came with this queue full). Linux lets
 * listen(2) be called again on a listening socket to move only its backlog, so the server's
 * socket gets the deepest queue the system allows (net.core.somaxconn, 4,096 by default since
 * Linux 5.4). Linux only; elsewhere, or when the socket cannot be found, nothing changes.
 */
export function deepenListenBacklog(port: number): ListenBacklog {
  if (process.platform !== "linux") return null;
  const most = Math.min(MOST, Number.parseInt(readOr("/proc/sys/net/core/somaxconn", "0").trim(), 10) || 0);
  if (most <= BUN_LISTEN_BACKLOG) return null;
  let fds: number[];
  try {
    fds = listeningDescriptors(port);
  } catch {
    return null;
  }
  if (fds.length === 0 || !fds.every((fd) => relisten(fd, most))) return null;
  return { before: BUN_LISTEN_BACKLOG, backlog: most };
}
