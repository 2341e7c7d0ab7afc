// Preloaded by bunfig.toml before every test file: end-to-end tests start real servers, and a
// busy machine (CI, a cold Chromium) can take longer than bun's 5 s default, which bunfig's own
// `timeout` key does not change (Bun 1.4.5).
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(30_000);
