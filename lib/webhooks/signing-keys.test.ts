import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb, schema } from "@/lib/db";
import { createTestProject } from "@/testing/factories";
import { sealedKid } from "./secret-box";
import { deliverySecrets, getSigningSecret, reencryptSigningSecrets, rotateSigningSecret } from "./signing-keys";

// TOKEN_SECRETS rotation as docs/operations.md describes it, seen from the stored signing
// secrets: a new entry first, the worker's re-sealing, then the old entry gone.

const original = process.env.TOKEN_SECRETS;
const oldEntry = `old:${"o".repeat(40)}`;
const newEntry = `new:${"n".repeat(40)}`;

function useTokenSecrets(value: string) {
  process.env.TOKEN_SECRETS = value;
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.config")];
}

afterAll(() => useTokenSecrets(original!));

const storedRow = async (projectId: string) =>
  (await (await getDb()).select().from(schema.webhookSigningKeys).where(eq(schema.webhookSigningKeys.projectId, projectId)))[0]!;

describe("signing secrets across a TOKEN_SECRETS rotation", () => {
  it("reencryptSigningSecrets – new entry first → rows re-sealed under it, the same secret; old entry removed → still readable", async () => {
    useTokenSecrets(oldEntry);
    const db = await getDb();
    const { project } = await createTestProject("Key rotation");
    const { secret } = await getSigningSecret(db, project.id);
    expect(sealedKid((await storedRow(project.id)).secretCiphertext)).toBe("old");

    useTokenSecrets(`${newEntry},${oldEntry}`);
    expect(await reencryptSigningSecrets(db)).toBeGreaterThanOrEqual(1);
    expect(sealedKid((await storedRow(project.id)).secretCiphertext)).toBe("new");
    expect(await reencryptSigningSecrets(db)).toBe(0);

    useTokenSecrets(newEntry);
    expect((await getSigningSecret(db, project.id)).secret).toBe(secret);
  });

  it("deliverySecrets – sealed under an entry no longer configured → SecretBoxError naming it; a rotation repairs it", async () => {
    useTokenSecrets(oldEntry);
    const db = await getDb();
    const { project } = await createTestProject("Lost key");
    await getSigningSecret(db, project.id);

    useTokenSecrets(newEntry);
    await expect(deliverySecrets(db, project.id)).rejects.toMatchObject({ code: "SECRET_BOX", message: expect.stringContaining('key "old", which is no longer configured') });
    const rotated = await rotateSigningSecret(db, project.id);
    expect(rotated.previousSecretExpiresAt).toBeNull();
    expect(await deliverySecrets(db, project.id)).toEqual([rotated.secret]);
  });

  it("rotateSigningSecret – twice → the first secret no longer signs, the second still does beside the third", async () => {
    useTokenSecrets(newEntry);
    const db = await getDb();
    const { project } = await createTestProject("Double rotation");
    const first = await getSigningSecret(db, project.id);
    const second = await rotateSigningSecret(db, project.id);
    const third = await rotateSigningSecret(db, project.id);
    expect(await deliverySecrets(db, project.id)).toEqual([third.secret, second.secret]);
    expect(await deliverySecrets(db, project.id)).not.toContain(first.secret);
  });
});
