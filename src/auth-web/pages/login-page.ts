import { type Html, html } from "../html";
import { layout } from "./layout";

export type LoginPageModel = {
  formToken: string;
  /** where to go after sign-in (already checked to be a path of this site) */
  next: string;
  email?: string;
  error?: string;
};

export function loginPage(model: LoginPageModel): Html {
  return layout(
    "Sign in",
    html`<h1>Sign in</h1>
${model.error ? html`<p class="error" role="alert" id="login-error">${model.error}</p>` : null}
<form method="post" action="/login" class="stack">
<input type="hidden" name="csrf_token" value="${model.formToken}">
<input type="hidden" name="next" value="${model.next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${model.email ?? ""}"${model.error ? html` aria-describedby="login-error"` : null}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" class="primary">Sign in</button>
</form>`,
  );
}
