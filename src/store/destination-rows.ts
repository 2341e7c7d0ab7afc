/**
 * DestinationRecord <-> rows, shared by both dialects: JSON-bearing columns are text, so values
 * read back exactly as they were stored.
 */
import type { DestinationPatch, DestinationRecord } from "./destination-store";

type JsonColumns = "regions" | "apiKeyHashes" | "filterRules" | "config" | "sealedConfig";

export type DestinationRow = Omit<DestinationRecord, JsonColumns> & {
  regions: string;
  apiKeyHashes: string | null;
  filterRules: string | null;
  config: string;
  sealedConfig: string;
  deletedAt: number | null;
};

const jsonOrNull = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const textOrNull = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

export function destinationRecord({ deletedAt: _deleted, ...row }: DestinationRow): DestinationRecord {
  return {
    ...row,
    regions: JSON.parse(row.regions) as string[],
    apiKeyHashes: jsonOrNull<string[]>(row.apiKeyHashes),
    filterRules: jsonOrNull<Record<string, unknown>>(row.filterRules),
    config: JSON.parse(row.config) as Record<string, unknown>,
    sealedConfig: JSON.parse(row.sealedConfig) as Record<string, string>,
  };
}

/** The row of a new destination. */
export function destinationRow(record: DestinationRecord) {
  return {
    ...record,
    regions: JSON.stringify(record.regions),
    apiKeyHashes: textOrNull(record.apiKeyHashes),
    filterRules: textOrNull(record.filterRules),
    config: JSON.stringify(record.config),
    sealedConfig: JSON.stringify(record.sealedConfig),
  };
}

/** The columns a patch changes; what it leaves out stays out. */
export function destinationColumns(patch: DestinationPatch) {
  const { regions, apiKeyHashes, filterRules, config, sealedConfig, ...rest } = patch;
  return {
    ...rest,
    ...(regions === undefined ? {} : { regions: JSON.stringify(regions) }),
    ...(apiKeyHashes === undefined ? {} : { apiKeyHashes: textOrNull(apiKeyHashes) }),
    ...(filterRules === undefined ? {} : { filterRules: textOrNull(filterRules) }),
    ...(config === undefined ? {} : { config: JSON.stringify(config) }),
    ...(sealedConfig === undefined ? {} : { sealedConfig: JSON.stringify(sealedConfig) }),
  };
}
