import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { passwordResets } from "@/lib/db/schema";

/**
 * Uses up the user's open password-reset links: once the password is set (by a reset, the
 * account page or the operator) an older link must not set it again. Inside the change's transaction.
 */
export async function closeOpenPasswordResets(tx: Db, userId: string): Promise<void> {
  await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
