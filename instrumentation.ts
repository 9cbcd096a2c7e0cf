// Runs once when the server starts, before it answers requests: migrate, open the admin channel, bootstrap.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("./lib/server/start-up");
    const { hasErrorCode } = await import("./lib/error-code");
    try {
      await startServer();
    } catch (error) {
      // A configuration mistake gets its message alone, not a stack trace from a bundle.
      if (!hasErrorCode(error, "CONFIG_INVALID")) throw error;
      console.error((error as Error).message);
      process.exit(1);
    }
  }
}
