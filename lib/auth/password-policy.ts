import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { ValidationError } from "@/lib/errors";

// What a new password must be (choosing one at an invitation, changing it, resetting it): at
// least 8 characters and not guessable, as zxcvbn estimates it with the common-password lists
// shipped in its packages (the blocklist: "password123", "qwertyuiop", keyboard walks, dates,
// the user's own address). Score 3 of 4 is "safely unguessable: moderate protection from an
// offline slow-hash scenario" (about 10^8 guesses), enough behind bcrypt and a sign-in limit.
// The estimator and its dictionaries (~37 MB of a process's memory) load at the first password
// checked, not with the server: most processes never check one (docs/benchmarks.md, memory).

export const minimumPasswordLength = 8;
export const maximumPasswordLength = 256;
const minimumScore = 3;

let estimator: Promise<ZxcvbnFactory> | undefined;
function strengthEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]).then(
    ([{ ZxcvbnFactory }, common, english]) =>
      new ZxcvbnFactory({
        translations: english.translations,
        graphs: common.adjacencyGraphs,
        dictionary: { ...common.dictionary, ...english.dictionary },
      }),
  );
  // A load that failed is tried again at the next password.
  estimator.catch(() => (estimator = undefined));
  return estimator;
}

/** Why `password` is refused as a new password, or null when it is fine. `userInputs`: the user's e-mail and name. */
export async function passwordProblem(password: string, userInputs: readonly string[] = []): Promise<string | null> {
  if (password.length < minimumPasswordLength) return `must be at least ${minimumPasswordLength} characters`;
  if (password.length > maximumPasswordLength) return `must be at most ${maximumPasswordLength} characters`;
  const words = userInputs.flatMap((input) => [input.toLowerCase(), ...input.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 3)]);
  const result = (await strengthEstimator()).check(password, words);
  if (result.score >= minimumScore) return null;
  const hint = result.feedback.warning ?? result.feedback.suggestions[0];
  return `is too easy to guess${hint ? `: ${hint.replace(/\.$/, "").toLowerCase()}` : ""}; use a longer phrase of unrelated words`;
}

/**
 * Refuses a weak new password with a 422 naming the field. Called by the verbs that set one, on
 * the server only: the estimator's dictionaries (several MB) stay out of the console's bundle.
 */
export async function assertAcceptablePassword(password: string, userInputs: readonly (string | null | undefined)[] = [], path = "password"): Promise<void> {
  const problem = await passwordProblem(password, userInputs.filter((input): input is string => Boolean(input)));
  if (problem) throw new ValidationError([{ path, message: problem }]);
}
