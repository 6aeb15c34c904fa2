// The bench's references serve in as many processes as the product (issue 31, item 7), all on one port,
// each binding its own socket with SO_REUSEPORT as the product's serving processes do
// (server/process/worker.ts): listen with `{ reusePort: true, exclusive: true }`.
import cluster from 'node:cluster';

/**
 * Runs `listen` here and in `processes - 1` copies of this script (cluster.fork: the same file and
 * arguments). The copies listen first and this process last, so once the port answers every process
 * serves: a connection made while only some listened would stay with those. A copy ends when this process
 * does (a cluster worker exits when its primary's channel closes), so stopping this one stops them all.
 */
export async function listenInProcesses(processes: number, listen: () => Promise<void>): Promise<void> {
  if (cluster.isWorker) {
    await listen();
    process.send?.('listening');
    return;
  }
  await Promise.all(
    Array.from(
      { length: processes - 1 },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = cluster.fork();
          worker.once('message', () => resolve());
          worker.once('exit', (code) => reject(new Error(`a reference process exited with ${code} before listening`)));
        }),
    ),
  );
  await listen();
}
