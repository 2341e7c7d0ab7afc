import type { AuthCodeRequest } from "../../modules/auth/service";
import { type Html, html } from "../html";
import type { SignedIn } from "../session";
import { layout } from "./layout";
import { signedInBar } from "./signed-in-page";

export type ConsentPageModel = {
  session: SignedIn;
  request: AuthCodeRequest;
  /** the callback's origin: the app as people can check it */
  appOrigin: string;
  /** where the key may go, the preselected one (the default workspace) first */
  workspaces: ReadonlyArray<{ id: string; name: string }>;
};

const usd = (amount: number) => `$${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;

/** One workspace is named; among several the person chooses (the select belongs to the form below by its id). */
function workspaceChoice(workspaces: ConsentPageModel["workspaces"]): Html {
  if (workspaces.length <= 1) return html`<dt>Workspace</dt><dd>${workspaces[0]?.name ?? ""}</dd>`;
  const options = workspaces.map((w, i) => html`<option value="${w.id}"${i === 0 ? html` selected` : null}>${w.name}</option>`);
  return html`<dt><label for="workspace_id">Workspace</label></dt><dd><select id="workspace_id" name="workspace_id" form="consent">${options}</select></dd>`;
}

/**
 * Authorize or deny an app's request for an API key. Both buttons submit the same form; the server
 * reads which. Nothing has focus at first: an Enter still held from the sign-in form must not approve.
 */
export function consentPage({ session, request, appOrigin, workspaces }: ConsentPageModel): Html {
  const hidden = (name: string, value: string | number | undefined) =>
    value === undefined ? null : html`<input type="hidden" name="${name}" value="${String(value)}">`;
  return layout(
    "Authorize app",
    html`<h1>Authorize <span class="origin">${appOrigin}</span>?</h1>
<p>This app asks for an API key that acts for your account. It can call models and spend up to the limit below.</p>
<dl class="facts">
<dt>App</dt><dd class="origin">${appOrigin}</dd>
<dt>Spending limit</dt><dd>${request.limit === undefined ? "No limit" : usd(request.limit)}</dd>
${workspaceChoice(workspaces)}
<dt>Account</dt><dd>${session.email || session.userId}</dd>
</dl>
<form method="post" action="/auth" id="consent">
<input type="hidden" name="csrf_token" value="${session.csrfToken}">
${hidden("callback_url", request.callback_url)}
${hidden("code_challenge", request.code_challenge)}
${hidden("code_challenge_method", request.code_challenge_method)}
${hidden("limit", request.limit)}
<div class="actions">
<button type="submit" name="decision" value="authorize" class="primary">Authorize</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
<p class="muted">You can revoke the key at any time. Only authorize apps you trust.</p>
${signedInBar(session)}`,
  );
}
