/**
 * The generation id an inference request is given before anything else runs. Its answers carry
 * it as `x-generation-id`, its errors too (the error handler adds it). It is kept beside the
 * request rather than in Elysia's `set.headers`: a header there makes Elysia copy every answer
 * into a new Response, its body turned into a stream, to merge the two.
 */
const ids = new WeakMap<Request, string>();

export function nameGeneration(request: Request, id: string): void {
  ids.set(request, id);
}

export function generationIdOf(request: Request): string | undefined {
  return ids.get(request);
}
