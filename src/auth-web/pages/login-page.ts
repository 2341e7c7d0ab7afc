import { type Html, html } from "../html";
import { layout } from "./layout";

export type LoginPageModel = {
  formToken: string;
  /** where to go after sign-in (already checked to be a path of this site) */
  next: string;
  email?: string;
  error?: string;
  /** single sign-on's button, when auth.oidc is set */
  sso?: { label: string };
  /** false: auth.password is off, only single sign-on is offered */
  password: boolean;
};

/** A link, not a form: it starts the provider's flow (GET /login/oidc), whose state and PKCE verifier bind it to this browser. */
const ssoButton = (model: LoginPageModel) =>
  model.sso ? html`<p><a class="button primary" id="sso" href="/login/oidc?next=${encodeURIComponent(model.next)}">${model.sso.label}</a></p>` : null;

export function loginPage(model: LoginPageModel): Html {
  return layout(
    "Sign in",
    html`<h1>Sign in</h1>
${model.error ? html`<p class="error" role="alert" id="login-error">${model.error}</p>` : null}
${ssoButton(model)}
${model.password ? passwordForm(model) : null}`,
  );
}

function passwordForm(model: LoginPageModel): Html {
  return html`${model.sso ? html`<p class="muted">or with your email and password</p>` : null}
<form method="post" action="/login" class="stack">
<input type="hidden" name="csrf_token" value="${model.formToken}">
<input type="hidden" name="next" value="${model.next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${model.email ?? ""}"${model.error ? html` aria-describedby="login-error"` : null}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit"${model.sso ? null : html` class="primary"`}>Sign in</button>
</form>`;
}
