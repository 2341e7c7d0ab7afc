/**
 * What the gateway charged for a generation. Usage in the IR stays tokens; the money travels
 * beside it and is handed to the encoder's finish (or result) explicitly.
 */
export type Settlement = {
  /** USD charged (0 when the request was not served or is free) */
  cost: number;
  isByok: boolean;
  costDetails: {
    upstreamInferencePromptCost: number;
    upstreamInferenceCompletionsCost: number;
    /** what a BYOK provider billed its owner; null when the gateway's own credential served */
    upstreamInferenceCost: number | null;
  };
  /** present only when the client asked for it (`X-Service-Experimental-Metadata: enabled`) */
  serviceMetadata?: Record<string, unknown>;
};

export const NO_CHARGE: Settlement = {
  cost: 0,
  isByok: false,
  costDetails: { upstreamInferencePromptCost: 0, upstreamInferenceCompletionsCost: 0, upstreamInferenceCost: null },
};
