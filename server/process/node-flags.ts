// V8 flags every serving process runs with (issue 31, item 3). They must be on the command line that starts
// the primary (`npm start`, deploy/site.service, the bench): V8 sizes its heap before any of our code runs.
// The other serving processes get them from the primary (server/process/worker-pool.ts), and gain them there
// when the primary was started without.
//
// --max-semi-space-size=16: on a machine with a lot of memory V8 lets the young generation grow to 64 MB
// per semi-space, and loading the server's modules (Drizzle's dialect builders above all) grows it there at
// once: measured on the 24 GB bench machine, an idle primary at 286 MB PSS with the default and 164 MB with
// 16 MB; `GET /api/user` answered as fast (18,000–25,000 req/s either way, load of the shared machine).
// 16 MB is the size V8 picked by itself before Node 22, and what it picks on a machine of 1–2 GB.
export const SERVING_NODE_FLAGS = ['--max-semi-space-size=16'] as const;

/** The flags for another serving process: the primary's own (but a debugger's), and ours where it lacks them. */
export function servingExecArgv(primaryExecArgv: readonly string[]): string[] {
  const inherited = primaryExecArgv.filter((arg) => !/^--(inspect|debug)/.test(arg));
  const missing = SERVING_NODE_FLAGS.filter((flag) => !inherited.some((arg) => arg.split('=')[0] === flag.split('=')[0]));
  return [...inherited, ...missing];
}
