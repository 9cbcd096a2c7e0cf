// The secrets every vitest file runs with (unless the environment sets its own), and the ones the
// run's migrated template database was made with.
export const testSecrets = {
  TOKEN_SECRETS: "test:0123456789abcdef0123456789abcdef",
  AUTH_SECRET: "test-auth-secret-0123456789abcdef0123",
};
