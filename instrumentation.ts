// Runs once when the server starts, before it answers requests: migrate, open the admin channel, bootstrap.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("./lib/server/start-up");
    const { ConfigError } = await import("./lib/config");
    try {
      await startServer();
    } catch (error) {
      // A configuration mistake gets its message alone, not a stack trace from a bundle.
      if (!(error instanceof ConfigError)) throw error;
      console.error(error.message);
      process.exit(1);
    }
  }
}
