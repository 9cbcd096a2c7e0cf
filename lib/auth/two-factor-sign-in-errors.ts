// The `error` values of a credentials sign-in's answer that concern its second step
// (docs/adr/0156-two-factor-totp.md); the server throws them, the sign-in form reads them. No
// server imports here: the browser bundle includes this file.
export const twoFactorSignInErrors = {
  /** The password was right and the user has two-factor: followed by the challenge to post back with the code. */
  required: "TwoFactorRequired:",
  wrongCode: "TwoFactorCodeWrong",
  expired: "TwoFactorChallengeExpired",
} as const;
