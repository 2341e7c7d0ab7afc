import { consoleScript, consoleStyle } from "./assets";

/**
 * The one HTML page of the console: the pages themselves are drawn by the bundled script
 * (hash routes, #/keys ...). It carries no data and no token: the script asks /console/api/me.
 */
export const SHELL_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Gateway console</title>
    <link rel="stylesheet" href="${consoleStyle.url}" />
    <script type="module" src="${consoleScript.url}"></script>
  </head>
  <body>
    <div id="app"><p class="loading">Loading the console…</p></div>
    <noscript>The console needs JavaScript.</noscript>
  </body>
</html>`;
