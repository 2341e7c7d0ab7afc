import type { AppContext } from "../app-context";
import { cookieHeader, cookiesSecure, readCookie } from "./cookies";
import { FORM_TOKEN_COOKIE, formTokenValid, newFormToken } from "./csrf";

const FORM_TOKEN_MAX_AGE_S = 12 * 3600;

/** The double-submit token of the forms shown before sign-in: the browser's current one, or a new one with the cookie that carries it. */
export function formTokenFor(ctx: Pick<AppContext, "config">, request: Request): { token: string; setCookies: string[] } {
  const current = readCookie(request, FORM_TOKEN_COOKIE);
  // kept while valid, so that two open sign-in tabs do not invalidate each other
  if (current && /^[A-Za-z0-9_-]{43}$/.test(current)) return { token: current, setCookies: [] };
  const token = newFormToken();
  return {
    token,
    setCookies: [cookieHeader(FORM_TOKEN_COOKIE, token, { secure: cookiesSecure(ctx, request), sameSite: "Strict", maxAge: FORM_TOKEN_MAX_AGE_S })],
  };
}

/** The submitted form repeated its cookie's token. */
export const formTokenSubmitted = (request: Request, submitted: string | undefined): boolean =>
  formTokenValid(readCookie(request, FORM_TOKEN_COOKIE), submitted);
