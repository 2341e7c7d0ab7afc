import { badRequest } from "../../errors";

/**
 * URL-safe: RFC 3986 unreserved characters only, starting with a letter or digit so that
 * "." and ".." (which URL normalisation rewrites) can never be slugs.
 */
const SLUG = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;

export const isPresetSlug = (slug: string): boolean => SLUG.test(slug);

export function assertPresetSlug(slug: string): void {
  if (!isPresetSlug(slug))
    throw badRequest(`Invalid preset slug '${slug}': use 1-128 letters, digits, '-', '_', '.' or '~', starting with a letter or digit`, { field: "slug" });
}
