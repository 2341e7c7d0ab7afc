/**
 * A Responses answer kept so that later requests of its workspace can refer to it. JSON values
 * are stored as given and read back equal.
 */
export type StoredResponse = {
  /** the response id the client saw */
  id: string;
  workspaceId: string;
  /** the input items the response answered, references resolved */
  input: unknown[];
  /** the output items exactly as the client received them; `id` makes one referable */
  output: Array<Record<string, unknown>>;
  createdAt: number;
  expiresAt: number;
  /** stored items the request referred to: they are kept until `expiresAt` too */
  referencedItemIds: string[];
};

export interface ResponseStateStore {
  /** stores the response and its output items; a response id already stored is left as it was */
  save(response: StoredResponse): Promise<void>;
  /** output items of the workspace by id, leaving out those expired at `now`; an id stored twice answers the later response's item */
  items(workspaceId: string, ids: string[], now: number): Promise<Map<string, unknown>>;
  /** the response's input and output items, if the workspace has it and it has not expired at `now` */
  conversation(workspaceId: string, responseId: string, now: number): Promise<{ input: unknown[]; output: unknown[] } | undefined>;
  /** deletes what expired at `now`; returns how many responses went */
  purgeExpired(now: number): Promise<number>;
}
