// The committed console bundle is what scripts/build-console.ts makes from src/console/web, and
// the shell page loads only it: no inline script or style, no other origin.
import { expect, test } from "bun:test";
import { buildConsoleAssets, SCRIPT_FILE, STYLE_FILE } from "../../../scripts/build-console";
import { consoleScript, consoleStyle } from "../../../src/console/assets";
import { SHELL_PAGE } from "../../../src/console/shell-page";

test("the committed bundle matches the sources (run `bun scripts/build-console.ts` after changing src/console/web)", async () => {
  const built = await buildConsoleAssets();
  expect(await Bun.file(SCRIPT_FILE).text()).toBe(built.script);
  expect(await Bun.file(STYLE_FILE).text()).toBe(built.style);
}, 30_000);

test("the shell page names the hashed bundle and nothing inline", () => {
  expect(consoleScript.url).toMatch(/^\/console\/assets\/console-[0-9a-f]{16}\.js$/);
  expect(consoleStyle.url).toMatch(/^\/console\/assets\/console-[0-9a-f]{16}\.css$/);
  expect(SHELL_PAGE).toContain(`<script type="module" src="${consoleScript.url}"></script>`);
  expect(SHELL_PAGE).toContain(`<link rel="stylesheet" href="${consoleStyle.url}" />`);
  // one script element, with a src; no style element or attribute; nothing from another origin
  expect(SHELL_PAGE.match(/<script/g)).toHaveLength(1);
  expect(SHELL_PAGE).not.toMatch(/<style|style=|https?:\/\//);
});

test("the bundle loads nothing from the network but its own origin", async () => {
  const { script } = await buildConsoleAssets();
  // the only absolute URLs in it: XML namespaces (Preact's SVG/MathML) and a form placeholder
  const urls = [...new Set(script.match(/https?:\/\/[^\s"'`)]+/g) ?? [])].sort();
  expect(urls).toEqual(["http://www.w3.org/1998/Math/MathML", "http://www.w3.org/1999/xhtml", "http://www.w3.org/2000/svg", "https://example.com/hooks"]);
});
