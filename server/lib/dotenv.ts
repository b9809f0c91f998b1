/** Loads .env when present; real environment variables win over it. Imports nothing, so the entry can read it before tracing starts. */
export function loadDotEnv(): void {
  try {
    process.loadEnvFile(".env");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
