// Runs once when the server starts, before it answers requests: migrate, open the admin channel, bootstrap.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("./lib/server/start-up");
    await startServer();
  }
}
