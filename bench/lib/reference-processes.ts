// The bench's references serve in as many processes as the product (issue 31, item 7), all on one port,
// each binding its own socket with SO_REUSEPORT as the product's serving processes do
// (server/process/worker.ts): listen with `{ reusePort: true, exclusive: true }`.
import cluster, { type Worker } from 'node:cluster';

/**
 * Runs `listen` here and in `processes - 1` copies of this script (cluster.fork: the same file and
 * arguments). The copies listen first and this process last, so once this one listens every process serves
 * (the port may answer a little earlier, from a copy): a connection made while only some listened would stay
 * with those. A copy ends when this process
 * does (a cluster worker exits when its primary's channel closes), and a SIGTERM here, even one that comes
 * while the copies are still starting, ends the copies first and this process only once they are gone: when
 * this one has exited, no process holds the port (a copy still closing would reset a connection the port
 * should refuse) and none is left unreaped.
 */
export async function listenInProcesses(processes: number, listen: () => Promise<void>): Promise<void> {
  if (cluster.isWorker) {
    await listen();
    process.send?.('listening');
    return;
  }
  // Set before the copies start: the port answers as soon as one copy listens, so a stop may come while the
  // others are still starting. Without it a SIGTERM would end this process at once, and the copies it never
  // waited for would linger as zombies of whatever adopted them.
  let stopping = false;
  process.once('SIGTERM', () => {
    stopping = true;
    const copies = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead());
    const gone = copies.map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
    for (const worker of copies) worker.process.kill('SIGTERM');
    void Promise.all(gone).then(() => process.exit(0));
  });
  await Promise.all(
    Array.from(
      { length: processes - 1 },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = cluster.fork();
          worker.once('message', () => resolve());
          worker.once('exit', (code) => (stopping ? resolve() : reject(new Error(`a reference process exited with ${code} before listening`))));
        }),
    ),
  );
  // Stopped while starting: the SIGTERM handler ends this process once the copies are gone.
  if (stopping) return;
  await listen();
}
