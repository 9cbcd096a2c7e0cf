import { z } from "zod";
import { findUserByEmail } from "@/lib/accounts/accounts";
import type { Db } from "@/lib/db";
import { verifyPassword } from "./secrets";

const credentialsInput = z.object({ email: z.email(), password: z.string().min(1).max(256) });

/**
 * A scrypt hash (same parameters as hashPassword) of a password nobody knows. Unknown emails,
 * users without a password and disabled users are checked against it, so every refusal costs
 * one scrypt: the time of an answer does not tell whether an account exists.
 */
export const dummyPasswordHash = "scrypt$16384$8$1$fS3JBc1v15GfKK92uSY-hw$MWm3RAZb04xi_A8rIrxzp6AQPIUoG2MhRiGQ9eIz4Fc";

export type SignedInUser = { id: string; email: string; name: string | null };

/** The user whose email and password these are, or null; malformed credentials are simply wrong ones. */
export async function verifySignIn(db: Db, raw: unknown): Promise<SignedInUser | null> {
  const parsed = credentialsInput.safeParse(raw);
  if (!parsed.success) return null;
  const user = await findUserByEmail(db, parsed.data.email);
  const usable = user?.passwordHash && !user.disabledAt ? user : null;
  const matches = await verifyPassword(parsed.data.password, usable?.passwordHash ?? dummyPasswordHash);
  return usable && matches ? { id: usable.id, email: usable.email, name: usable.name } : null;
}
