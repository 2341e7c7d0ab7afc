import { type Html, html } from "../html";
import { PASSWORD_MIN_LENGTH } from "../passwords";
import { layout } from "./layout";

export type InvitePageModel = { formToken: string; inviteToken: string; email: string; error?: string };

/** Where an invited user chooses their password. */
export function invitePage(model: InvitePageModel): Html {
  return layout(
    "Choose a password",
    html`<h1>Choose a password</h1>
<p>You were invited to sign in as <strong>${model.email}</strong>.</p>
${model.error ? html`<p class="error" role="alert" id="invite-error">${model.error}</p>` : null}
<form method="post" action="/invite" class="stack">
<input type="hidden" name="csrf_token" value="${model.formToken}">
<input type="hidden" name="token" value="${model.inviteToken}">
<input type="hidden" name="email" value="${model.email}" autocomplete="username">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required autofocus aria-describedby="password-hint">
<p class="muted" id="password-hint">At least ${PASSWORD_MIN_LENGTH} characters.</p>
<label for="confirm">Repeat the password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button type="submit" class="primary">Set password and sign in</button>
</form>`,
  );
}
