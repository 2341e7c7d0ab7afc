import { type Html, html } from "../html";
import type { SignedIn } from "../session";
import { layout } from "./layout";

/** Who is signed in, with the form that signs out; shown at the foot of pages for a session. */
export function signedInBar(session: SignedIn): Html {
  return html`<div class="signed-in">
<p>Signed in as <strong>${session.email || session.userId}</strong></p>
<form method="post" action="/logout">
<input type="hidden" name="csrf_token" value="${session.csrfToken}">
<button type="submit">Sign out</button>
</form>
</div>`;
}

export function signedInPage(session: SignedIn): Html {
  return layout(
    "Signed in",
    html`<h1>You are signed in</h1>
<p class="muted">Apps that send you here to authorize a key will ask for your approval.</p>
<p><a href="/console">Open the console</a></p>
${signedInBar(session)}`,
  );
}
