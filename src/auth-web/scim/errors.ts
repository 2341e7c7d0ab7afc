/** SCIM's error response (RFC 7644, section 3.12): the status, and for 400 and 409 a `scimType` naming the kind of problem. */
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue"
  | "invalidVers"
  | "sensitive";

export class ScimProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export const SCIM_CONTENT_TYPE = "application/scim+json; charset=utf-8";

export function scimJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": SCIM_CONTENT_TYPE, "cache-control": "no-store", ...headers } });
}

export function scimErrorResponse(problem: ScimProblem): Response {
  return scimJson(problem.status, {
    schemas: [ERROR_SCHEMA],
    status: String(problem.status),
    ...(problem.scimType && { scimType: problem.scimType }),
    detail: problem.detail,
  });
}
