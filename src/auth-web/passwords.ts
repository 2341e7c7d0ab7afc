import { badRequest } from "../errors";

/** Long enough to resist guessing at argon2id speed, short enough that hashing cannot be used to tie up the server. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 1024;

/** What is wrong with a new password; null when it will do. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  if (password.trim() === "") return "must not be blank";
  return null;
}

export function checkedPassword(password: string, field = "password"): string {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(`Invalid field '${field}': the password ${problem}`, { field });
  return password;
}

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

// an argon2id hash of a random password nobody knows, made once: unknown accounts cost as much to check as known ones
let decoy: Promise<string> | undefined;
const decoyHash = () => (decoy ??= hashPassword(crypto.randomUUID()));

/** Checks the password against the stored hash; without a hash, spends the same time and says no. */
export async function passwordMatches(password: string, hash: string | undefined): Promise<boolean> {
  if (password.length === 0 || password.length > PASSWORD_MAX_LENGTH) return false;
  if (hash === undefined) {
    await Bun.password.verify(password, await decoyHash()).catch(() => false);
    return false;
  }
  return Bun.password.verify(password, hash).catch(() => false);
}
