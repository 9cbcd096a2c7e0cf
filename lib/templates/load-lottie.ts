import { LRUCache } from "lru-cache";
import { getBlobStore } from "@/lib/storage";
import type { Lottie } from "@/shared/templates/lottie";
import { parseLottieJson } from "./lottie";
import type { TemplateFileRow } from "./templates";

/** Parsed Lottie files by storage key: uploads are immutable, so a key's content never changes. */
const lottieCache = new LRUCache<string, Lottie>({ max: 32 });

/** A template's Lottie file, parsed once per process (the caller must not mutate it). */
export async function loadLottie(file: TemplateFileRow): Promise<Lottie> {
  let lottie = lottieCache.get(file.storageKey);
  if (!lottie) {
    lottie = parseLottieJson((await getBlobStore().read(file.storageKey)).toString("utf8"));
    lottieCache.set(file.storageKey, lottie);
  }
  return lottie;
}
