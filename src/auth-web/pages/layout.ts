import { type Html, html } from "../html";

export const STYLESHEET_PATH = "/auth-web/auth.css";

/** The frame of every sign-in and consent page: one column, readable on a phone, styled only by the stylesheet file. */
export function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Model Gateway</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main class="card">
<p class="brand">Model Gateway</p>
${body}
</main>
</body>
</html>
`;
}

/** A short message in place of a form: an error that leads nowhere, or what happened. */
export function messagePage(title: string, message: string, links: Array<{ href: string; label: string }> = []): Html {
  return layout(
    title,
    html`<h1>${title}</h1>
<p role="alert">${message}</p>
${links.map((l) => html`<p><a href="${l.href}">${l.label}</a></p>`)}`,
  );
}
