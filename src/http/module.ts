import { Elysia } from "elysia";

/**
 * Every route module starts here. `normalize: false` makes unknown body fields on
 * strict schemas a 400 instead of being silently dropped (a PATCH with a field we
 * do not support must not look like it worked); it must be set on each instance.
 */
export function routeModule<const Name extends string, const Prefix extends string = "">(name: Name, prefix?: Prefix) {
  return new Elysia({ name, prefix: (prefix ?? "") as Prefix, normalize: false });
}
