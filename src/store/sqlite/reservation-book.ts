/** One open reservation: what it holds against its key, its workspace and its key's creator in that workspace (a member), and its lease. */
export type Hold = {
  keyHash: string;
  amountNanos: number;
  workspaceId: string | null;
  workspaceAmountNanos: number;
  /** the member whose guardrail budget it holds against (of `workspaceId`), or null */
  memberUserId: string | null;
  memberAmountNanos: number;
  instanceId: string;
  expiresAt: number;
};

const memberOf = (workspaceId: string, userId: string) => `${workspaceId}\u0000${userId}`;

/**
 * The open reservations of the process that owns the SQLite file, kept in memory: that process
 * releases every reservation when it starts (`releaseOrphanedReservations`, src/server.ts), so a
 * reservation lives exactly as long as the process and never needs the disk. The sums per key and
 * per workspace are kept beside them so that a check is a map lookup; a sum that falls to zero is
 * dropped, so the maps hold only what is open.
 *
 * Another process (or Worker thread, such as the job workers) on the same file has a book of its
 * own and sees none of these holds: only the process that owns the file may reserve, and the
 * generation commits that release its reservations must run there too.
 */
export class ReservationBook {
  private readonly holds = new Map<string, Hold>();
  private readonly byKey = new Map<string, number>();
  private readonly byWorkspace = new Map<string, number>();
  private readonly byMember = new Map<string, number>();

  get size(): number {
    return this.holds.size;
  }

  keyHeld(keyHash: string): number {
    return this.byKey.get(keyHash) ?? 0;
  }

  workspaceHeld(workspaceId: string): number {
    return this.byWorkspace.get(workspaceId) ?? 0;
  }

  memberHeld(workspaceId: string, userId: string): number {
    return this.byMember.get(memberOf(workspaceId, userId)) ?? 0;
  }

  isOpen(id: string): boolean {
    return this.holds.has(id);
  }

  /** the same id twice is a caller's bug, refused like the primary key it replaces */
  hold(id: string, hold: Hold): void {
    if (this.holds.has(id)) throw new Error(`reservation ${id} is already open`);
    this.holds.set(id, hold);
    addTo(this.byKey, hold.keyHash, hold.amountNanos);
    if (hold.workspaceId !== null) addTo(this.byWorkspace, hold.workspaceId, hold.workspaceAmountNanos);
    if (hold.workspaceId !== null && hold.memberUserId !== null) addTo(this.byMember, memberOf(hold.workspaceId, hold.memberUserId), hold.memberAmountNanos);
  }

  /** takes a reservation out and returns it; undefined when it is not open */
  release(id: string): Hold | undefined {
    const hold = this.holds.get(id);
    if (!hold) return undefined;
    this.holds.delete(id);
    addTo(this.byKey, hold.keyHash, -hold.amountNanos);
    if (hold.workspaceId !== null) addTo(this.byWorkspace, hold.workspaceId, -hold.workspaceAmountNanos);
    if (hold.workspaceId !== null && hold.memberUserId !== null) addTo(this.byMember, memberOf(hold.workspaceId, hold.memberUserId), -hold.memberAmountNanos);
    return hold;
  }

  /** moves the lease of every reservation of an instance to `expiresAt`; returns how many */
  renew(instanceId: string, expiresAt: number): number {
    let renewed = 0;
    for (const hold of this.holds.values()) {
      if (hold.instanceId !== instanceId) continue;
      hold.expiresAt = expiresAt;
      renewed++;
    }
    return renewed;
  }

  /** the ids of the reservations whose lease ended before `now` */
  expiredIds(now: number): string[] {
    const ids: string[] = [];
    for (const [id, hold] of this.holds) if (hold.expiresAt < now) ids.push(id);
    return ids;
  }

  openIds(): string[] {
    return [...this.holds.keys()];
  }
}

function addTo(sums: Map<string, number>, id: string, amount: number): void {
  const sum = (sums.get(id) ?? 0) + amount;
  if (sum === 0) sums.delete(id);
  else sums.set(id, sum);
}
