import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as english from "@zxcvbn-ts/language-en";
import { ValidationError } from "@/lib/errors";

// What a new password must be (choosing one at an invitation, changing it, resetting it): at
// least 8 characters and not guessable, as zxcvbn estimates it with the common-password lists
// shipped in its packages (the blocklist: "password123", "qwertyuiop", keyboard walks, dates,
// the user's own address). Score 3 of 4 is "safely unguessable: moderate protection from an
// offline slow-hash scenario" (about 10^8 guesses), enough behind bcrypt and a sign-in limit.

export const minimumPasswordLength = 8;
export const maximumPasswordLength = 256;
const minimumScore = 3;

let estimator: ZxcvbnFactory | undefined;
function strengthEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    translations: english.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...english.dictionary },
  });
  return estimator;
}

/** Why `password` is refused as a new password, or null when it is fine. `userInputs`: the user's e-mail and name. */
export function passwordProblem(password: string, userInputs: readonly string[] = []): string | null {
  if (password.length < minimumPasswordLength) return `must be at least ${minimumPasswordLength} characters`;
  if (password.length > maximumPasswordLength) return `must be at most ${maximumPasswordLength} characters`;
  const words = userInputs.flatMap((input) => [input.toLowerCase(), ...input.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 3)]);
  const result = strengthEstimator().check(password, words);
  if (result.score >= minimumScore) return null;
  const hint = result.feedback.warning ?? result.feedback.suggestions[0];
  return `is too easy to guess${hint ? `: ${hint.replace(/\.$/, "").toLowerCase()}` : ""}; use a longer phrase of unrelated words`;
}

/**
 * Refuses a weak new password with a 422 naming the field. Called by the verbs that set one, on
 * the server only: the estimator's dictionaries (several MB) stay out of the console's bundle.
 */
export function assertAcceptablePassword(password: string, userInputs: readonly (string | null | undefined)[] = [], path = "password"): void {
  const problem = passwordProblem(password, userInputs.filter((input): input is string => Boolean(input)));
  if (problem) throw new ValidationError([{ path, message: problem }]);
}
