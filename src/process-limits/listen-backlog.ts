import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { relisten } from "./libc";

/** What Bun.serve passes to listen(2), whatever it is asked (bun 1.4: no option reaches it). */
export const BUN_LISTEN_BACKLOG = 512;
/** listen(2) takes an int, and the kernel keeps the backlog in 32 bits; somaxconn caps it anyway. */
const MOST = 65_535;
/** /proc/net/tcp's state of a listening socket */
const TCP_LISTEN = "0A";

export type ListenBacklog = { before: number; backlog: number } | null;

const readOr = (path: string, fallback: string): string => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return fallback;
  }
};

/** The inodes of this process's sockets listening on `port` (IPv4 and IPv6), from /proc. */
function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/self/net/tcp", "/proc/self/net/tcp6"]) {
    for (const line of readOr(table, "").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (f.length > 9 && f[3] === TCP_LISTEN && f[1]!.endsWith(`:${hexPort}`)) inodes.add(f[9]!);
    }
  }
  return inodes;
}

/** The descriptors of this process whose socket is one of `inodes`. */
function descriptorsOf(inodes: Set<string>): number[] {
  const fds: number[] = [];
  for (const name of readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${name}`);
    } catch {
      continue; // closed since the listing
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined && inodes.has(inode)) fds.push(Number(name));
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
    fds = descriptorsOf(listeningInodes(port));
  } catch {
    return null;
  }
  if (fds.length === 0 || !fds.every((fd) => relisten(fd, most))) return null;
  return { before: BUN_LISTEN_BACKLOG, backlog: most };
}
