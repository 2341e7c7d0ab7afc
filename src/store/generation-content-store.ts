/** The prompts and completions I/O logging keeps (sealed; the store never opens them). */

export type GenerationContentRecord = {
  generationId: string;
  workspaceId: string;
  keyHash: string;
  /** the content document sealed with the secret box */
  sealed: string;
  createdAt: number;
};

/** Written with the generation record (SettledGeneration.content), read and pruned here. */
export interface GenerationContentStore {
  get(generationId: string): Promise<GenerationContentRecord | undefined>;
  /** deletes what was kept before `before` (ms); returns how many */
  purgeBefore(before: number): Promise<number>;
}
