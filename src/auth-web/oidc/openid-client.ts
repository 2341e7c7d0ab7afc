/**
 * openid-client, and jose under it, load on the first sign-in step that needs them: a gateway
 * without single sign-on never holds them in memory (its idle RSS is measured; issue 47).
 */
let loaded: Promise<typeof import("openid-client")> | undefined;

export const openidClient = (): Promise<typeof import("openid-client")> => (loaded ??= import("openid-client"));
