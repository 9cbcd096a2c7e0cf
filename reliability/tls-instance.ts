import { test as base } from "@playwright/test";
import { startOwnInstance, type OwnInstance } from "../e2e/own-instance";

// A second app instance for the security specs, started once per worker and shared by the specs
// that ask for it: PUBLIC_BASE_URL=https://… (the app behind a TLS-terminating proxy: HSTS), and
// a share-miss limit tight enough to stay refused while a test looks (SHARE_MISS_RATE=6: six
// misses at once, then one every 10 s).

export const tlsInstanceMissRate = 6;

export const test = base.extend<object, { tlsInstance: OwnInstance }>({
  tlsInstance: [
    async ({}, provide) => {
      const instance = await startOwnInstance("tls", { PUBLIC_BASE_URL: "https://reelbind.test", SHARE_MISS_RATE: String(tlsInstanceMissRate) });
      try {
        await provide(instance);
      } finally {
        await instance.stop();
      }
    },
    { scope: "worker", timeout: 300_000 },
  ],
});

export { expect } from "@playwright/test";
