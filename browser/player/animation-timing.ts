import type { Lottie } from "@/shared/templates/lottie";

/** Where an animation starts and ends, in its own frames. */
export type AnimationTiming = { frameRate: number; totalFrames: number };

export function timingOf(animationData: Lottie): AnimationTiming {
  return { frameRate: animationData.fr, totalFrames: animationData.op - animationData.ip };
}
