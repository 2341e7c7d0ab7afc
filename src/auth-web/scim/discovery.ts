/** The discovery documents of RFC 7644, section 4, and the schema URNs of RFC 7643. */
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/** The most resources one page of a list holds, whatever `count` asks for (RFC 7644, section 3.4.2.4 lets the server cap it). */
export const MAX_PAGE = 200;

export function serviceProviderConfig(base: string) {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    documentationUri: `${base}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      { type: "oauthbearertoken", name: "OAuth Bearer Token", description: "A SCIM token made by POST /api/v1/scim/tokens", primary: true },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${base}/scim/v2/ServiceProviderConfig` },
  };
}

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

const USER_ATTRIBUTES = [
  attribute("userName", "string", { required: true, uniqueness: "server" }),
  attribute("name", "complex", { subAttributes: [attribute("formatted", "string"), attribute("givenName", "string"), attribute("familyName", "string")] }),
  attribute("displayName", "string"),
  attribute("emails", "complex", {
    multiValued: true,
    subAttributes: [attribute("value", "string"), attribute("type", "string"), attribute("primary", "boolean")],
  }),
  attribute("active", "boolean"),
  attribute("externalId", "string", { caseExact: true }),
  attribute("groups", "complex", { multiValued: true, mutability: "readOnly", subAttributes: [attribute("value", "string"), attribute("display", "string")] }),
];

const GROUP_ATTRIBUTES = [
  attribute("displayName", "string", { required: true }),
  attribute("externalId", "string", { caseExact: true }),
  attribute("members", "complex", {
    multiValued: true,
    subAttributes: [attribute("value", "string", { mutability: "immutable" }), attribute("display", "string")],
  }),
];

export function schemas(base: string) {
  const schema = (id: string, name: string, attributes: unknown[]) => ({
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
    id,
    name,
    attributes,
    meta: { resourceType: "Schema", location: `${base}/scim/v2/Schemas/${id}` },
  });
  return [schema(USER_SCHEMA, "User", USER_ATTRIBUTES), schema(GROUP_SCHEMA, "Group", GROUP_ATTRIBUTES)];
}

export function resourceTypes(base: string) {
  const type = (id: string, endpoint: string, schema: string) => ({
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id,
    name: id,
    endpoint,
    schema,
    meta: { resourceType: "ResourceType", location: `${base}/scim/v2/ResourceTypes/${id}` },
  });
  return [type("User", "/Users", USER_SCHEMA), type("Group", "/Groups", GROUP_SCHEMA)];
}

/** A list response over one page of resources (RFC 7644, section 3.4.2). */
export function listResponse<T>(resources: T[], total: number, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults: total, itemsPerPage: resources.length, startIndex, Resources: resources };
}
