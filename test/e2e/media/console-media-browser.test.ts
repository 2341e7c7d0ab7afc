// The console's Playground and analytics over the media operations in headless Chromium (Debian's;
// skipped without one), at 1280 and 375 px: an image generated and shown, speech played, a file
// transcribed, documents ranked, each with its cost and generation; then the analytics by kind with
// the exact requests, spend and images of what was made. Screenshots under test/artifacts/console/
// (media-*). No page may log an error.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { createInferenceKey } from "../../support/gateway";
import { pngBytes } from "../../support/media-mocks/png";
import { wavBytes } from "../../support/media-mocks/wav";
import { CHROMIUM, pageWidth, SHOTS, screenshotter, signedIn as signedInAs, visit as visitPage } from "../console/browser-session";
import { type ConsoleGateway, startConsoleGateway } from "../console/harness";
import { type MediaMocks, mediaYaml, startMediaMocks } from "./setup";

const WIDTHS = [1280, 375] as const;
let mocks: MediaMocks;
let cg: ConsoleGateway;
let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  if (!CHROMIUM) return;
  mkdirSync(SHOTS, { recursive: true });
  mocks = startMediaMocks();
  // what a browser decodes: real PNGs, and a one-second WAV as the speech
  mocks.imgA.image = (i) => pngBytes(96, 64, i);
  mocks.audioA.speechBytes = () => wavBytes(1, 8000);
  mocks.audioA.chunkBytes = 8192;
  mocks.audioA.chunks = 2;
  cg = await startConsoleGateway({ yaml: mediaYaml(mocks) });
  await createInferenceKey(cg.gw, { name: "media play" });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"] });
}, 60_000);
afterAll(async () => {
  if (!CHROMIUM) return;
  await browser?.close();
  await cg.close();
  for (const m of Object.values(mocks)) m.stop();
});

const shot = screenshotter("media-");

/** the Playground signed in as the owner at `width`, with `model` and the "media play" key chosen */
async function playground(width: number, model: string): Promise<Page> {
  const page = await signedInAs(browser, cg, "owner", problems, width);
  await visitPage(page, cg, "playground", "Playground");
  await page.getByLabel("Model").selectOption(model);
  await page.getByLabel("Key").selectOption({ label: "media play" });
  return page;
}

/** the facts under the answer (its cost, what it made, the link), then the generation it opens: its kind */
async function openGeneration(page: Page, region: ReturnType<Page["getByRole"]>, facts: string[], apiType: string): Promise<void> {
  expect((await region.locator(".answer-facts").innerText()).split("\n").map((f) => f.trim())).toEqual([...facts, "Open its generation"]);
  await region.getByRole("link", { name: "Open its generation" }).click();
  await page.getByRole("heading", { name: /^Generation gen-/ }).waitFor();
  expect(await page.locator("dl.record").innerText()).toContain(apiType);
}

test.skipIf(!CHROMIUM)(
  "an image model: a prompt, the image shown (decoded by the browser), $0.011 for one 1024x1024/low image",
  async () => {
    for (const width of WIDTHS) {
      const page = await playground(width, "openai/gpt-image-1");
      expect(await page.getByLabel("Size").locator("option").allTextContents()).toEqual(["1024x1024", "1536x1024", "1024x1536"]);
      await page.getByLabel("Prompt").fill("a striped square");
      await page.getByRole("button", { name: "Generate" }).click();
      const answer = page.getByRole("region", { name: "Images" });
      const img = answer.getByRole("img", { name: "Output 1 for: a striped square" });
      await img.waitFor();
      await page.waitForFunction(() => (document.querySelector(".media img") as HTMLImageElement | null)?.complete === true);
      expect(await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight])).toEqual([96, 64]);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "playground-image", width);
      await openGeneration(page, answer, ["Cost $0.011", "1 image"], "image");
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "a speech model: text to playable audio (its duration read by the browser), $0.000075 for 5 characters",
  async () => {
    for (const width of WIDTHS) {
      const page = await playground(width, "openai/tts-1");
      expect(await page.getByLabel("Format").locator("option").allTextContents()).toEqual(["mp3", "wav"]);
      await page.getByLabel("Format").selectOption("wav");
      await page.getByLabel("Text").fill("hello");
      await page.getByRole("button", { name: "Speak" }).click();
      const answer = page.getByRole("region", { name: "Speech" });
      const audio = answer.getByLabel("Generated speech");
      await audio.waitFor();
      const duration = await audio.evaluate(
        (el: HTMLAudioElement) =>
          new Promise<number>((resolve, reject) => {
            if (el.readyState >= 1) return resolve(el.duration);
            el.addEventListener("loadedmetadata", () => resolve(el.duration));
            el.addEventListener("error", () => reject(new Error(`audio error ${el.error?.code}`)));
          }),
      );
      expect(duration).toBe(1);
      expect(await audio.getAttribute("src")).toStartWith("blob:");
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "playground-speech", width);
      await openGeneration(page, answer, ["Cost $0.000075", "16,044 bytes of audio/wav"], "tts");
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "a transcription model: an uploaded file to its text, 12 seconds at $0.006 a minute",
  async () => {
    for (const width of WIDTHS) {
      const page = await playground(width, "openai/whisper-1");
      await page.getByLabel("Audio file").setInputFiles({ name: "talk.wav", mimeType: "audio/wav", buffer: Buffer.from(wavBytes(2)) });
      await page.getByRole("button", { name: "Transcribe" }).click();
      const answer = page.getByRole("region", { name: "Transcript" });
      await answer.getByText("The quick brown fox jumps over the lazy dog.").waitFor();
      expect(mocks.audioA.uploads.at(-1)!.file!.size).toBe(wavBytes(2).byteLength);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "playground-transcription", width);
      await openGeneration(page, answer, ["Cost $0.0012", "12 s of audio"], "stt");
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "a rerank model: a query and documents to the ranked list with scores, one search at $0.002",
  async () => {
    for (const width of WIDTHS) {
      const page = await playground(width, "cohere/rerank-v3.5");
      await page.getByLabel("Query").fill("capital of France");
      await page.getByLabel("Documents").fill("Paris is the capital of France\nBananas are yellow\nFrance borders Spain");
      await page.getByRole("button", { name: "Rank" }).click();
      const answer = page.getByRole("region", { name: "Ranking" });
      await answer.locator(".ranking li").first().waitFor();
      // the mock ranks last-first: 0.9, 0.8, 0.7
      expect(await answer.locator(".ranking li").allInnerTexts()).toEqual([
        "0.9000 France borders Spain (document 3)",
        "0.8000 Bananas are yellow (document 2)",
        "0.7000 Paris is the capital of France (document 1)",
      ]);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "playground-rerank", width);
      await openGeneration(page, answer, ["Cost $0.002", "1 search unit"], "rerank");
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)(
  "analytics per kind: the requests, spend and images of each kind made above (two of each); filtered to images, the images chart",
  async () => {
    for (const width of WIDTHS) {
      const page = await signedInAs(browser, cg, "owner", problems, width);
      await page.getByLabel("Lines").selectOption("api_type");
      const table = page.locator("table.breakdown");
      await table.locator("tbody tr th").first().waitFor();
      // each row's kind, spend, requests and images
      const rows = async () =>
        Promise.all(
          (await table.locator("tbody tr").all()).map(async (r) => (await r.locator("th, td").allInnerTexts()).filter((_, i) => [0, 1, 2, 7].includes(i))),
        );
      expect((await table.locator("thead th").allInnerTexts()).map((h) => h.toLowerCase())).toEqual([
        "kind",
        "spend",
        "requests",
        "tokens",
        "p50",
        "p95",
        "errors",
        "images",
      ]);
      expect(await rows()).toEqual([
        ["Images (image)", "$0.02", "2", "2"],
        ["Rerank (rerank)", "$0.0040", "2", "—"],
        ["Transcription (stt)", "$0.0024", "2", "—"],
        ["Speech (tts)", "$0.00015", "2", "—"],
      ]);
      expect(await pageWidth(page)).toBe(width);
      await shot(page, "analytics-kinds", width);
      await page.getByLabel("Kind", { exact: true }).selectOption("image");
      await page.getByText("Images", { exact: true }).and(page.locator("figcaption")).waitFor();
      await page.waitForFunction(() => document.querySelectorAll("table.breakdown tbody tr").length === 1);
      expect(await rows()).toEqual([["Images (image)", "$0.02", "2", "2"]]);
      await shot(page, "analytics-images", width);
      await page.close();
    }
  },
  90_000,
);

test.skipIf(!CHROMIUM)("no page logged an error", () => {
  expect(problems).toEqual([]);
});
