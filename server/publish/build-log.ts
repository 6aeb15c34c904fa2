// The log a build step leaves for the admin (shown with a failed publish).

/** Keep the last part of a runaway log only: the end is where the error is. */
const MAX_LOG_CHARS = 1_000_000;

/** `log` with `chunk` added, cut from the front past MAX_LOG_CHARS. */
export function appendToBuildLog(log: string, chunk: Buffer | string): string {
  const next = log + chunk.toString();
  return next.length > MAX_LOG_CHARS ? next.slice(-MAX_LOG_CHARS) : next;
}
