import { createInferenceKey, startTestGateway, type TestGateway, type TestGatewayOptions } from "./gateway";
import { type MockUpstream, startMockUpstream } from "./mock-upstream";

/** One mock upstream, a test gateway whose gateway.yaml points at it, and an inference key of that gateway. */
export type GatewayAndUpstream = {
  up: MockUpstream;
  gw: TestGateway;
  /** the raw secret of the inference key made at start */
  key: string;
  keyHash: string;
  /** stops the gateway, then the upstream */
  close(): Promise<void>;
};

export type GatewayAndUpstreamOptions = Omit<TestGatewayOptions, "yaml"> & {
  /** gateway.yaml, given the upstream's base URL */
  yaml: (upstreamUrl: string) => string;
  /** the POST /keys body of the inference key made at start */
  keyBody?: Record<string, unknown>;
};

export async function startGatewayAndUpstream(opts: GatewayAndUpstreamOptions): Promise<GatewayAndUpstream> {
  const { yaml, keyBody, ...gatewayOptions } = opts;
  const up = await startMockUpstream();
  const gw = await startTestGateway({ ...gatewayOptions, yaml: yaml(up.url) });
  const { key, hash } = await createInferenceKey(gw, keyBody);
  return {
    up,
    gw,
    key,
    keyHash: hash,
    async close() {
      await gw.close();
      await up.stop();
    },
  };
}
