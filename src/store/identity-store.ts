/** People's identities at an OpenID Connect provider: which gateway user an issuer's subject is. */

export type UserIdentityRecord = { issuer: string; subject: string; userId: string; createdAt: number };

export interface UserIdentityStore {
  /** the user an issuer's subject signs in as */
  find(issuer: string, subject: string): Promise<string | undefined>;
  /** links the subject to the user (a subject already linked keeps its user) */
  link(identity: UserIdentityRecord): Promise<void>;
  deleteForUser(userId: string): Promise<number>;
}

/** A SCIM client's bearer token; the raw token is shown once, only its SHA-256 is kept. */
export type ScimTokenRecord = { id: string; name: string; tokenHash: string; createdAt: number };

export interface ScimTokenStore {
  create(token: ScimTokenRecord): Promise<ScimTokenRecord>;
  byHash(tokenHash: string): Promise<ScimTokenRecord | undefined>;
  /** oldest first */
  list(): Promise<ScimTokenRecord[]>;
  delete(id: string): Promise<ScimTokenRecord | undefined>;
}

/** What SCIM says of a user that the users table has no column for (RFC 7643, section 4.1). */
export type ScimUserRecord = { userId: string; externalId: string | null; givenName: string | null; familyName: string | null; updatedAt: number };

export interface ScimUserStore {
  get(userId: string): Promise<ScimUserRecord | undefined>;
  /** creates or replaces the user's row */
  put(record: ScimUserRecord): Promise<ScimUserRecord>;
  delete(userId: string): Promise<boolean>;
}
