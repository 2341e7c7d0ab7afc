import type { CatalogModel } from "../../catalog/types";

/** The model list as an RSS 2.0 feed (`GET /models?use_rss=true`): one item per model, newest first. */

const escapeXml = (s: string) =>
  s
    .replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!)
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "");

/** RFC 822 date, as RSS 2.0 requires */
const rfc822 = (unixSeconds: number) => new Date(unixSeconds * 1000).toUTCString();

export type RssOptions = {
  /** scheme, host and port of the gateway as the client reached it */
  origin: string;
  /** item links open a chat with the model instead of its record */
  chatLinks: boolean;
  now: number;
};

export function modelsRss(models: CatalogModel[], o: RssOptions): string {
  const items = [...models]
    .sort((a, b) => b.created - a.created || a.id.localeCompare(b.id))
    .map((m) => {
      const link = o.chatLinks ? `${o.origin}/chat?models=${encodeURIComponent(m.id)}` : `${o.origin}/api/v1/model/${m.id}`;
      return [
        "    <item>",
        `      <title>${escapeXml(m.name)}</title>`,
        `      <link>${escapeXml(link)}</link>`,
        `      <guid isPermaLink="false">${escapeXml(m.id)}</guid>`,
        `      <description>${escapeXml(m.description)}</description>`,
        `      <pubDate>${rfc822(m.created)}</pubDate>`,
        "    </item>",
      ].join("\n");
    });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0">',
    "  <channel>",
    "    <title>Model Gateway: models</title>",
    `    <link>${escapeXml(`${o.origin}/api/v1/models`)}</link>`,
    "    <description>Models this gateway can route to</description>",
    `    <lastBuildDate>${new Date(o.now).toUTCString()}</lastBuildDate>`,
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}
