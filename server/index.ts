// `npm start`'s entry, and every other serving process's (process/worker-pool.ts): Node's compile cache first,
// then the server itself (main.ts). Without the cache every start strips the types of and compiles each of the
// server's modules again, about 0.4 s of every start and of every serving process forked
// (docs/decisions/0067-serving-compile-cache.md). It must be on before main.ts's imports are parsed, hence
// this file and the dynamic import. The cache holds compiled code, not data: it lives beside the installation,
// in node_modules/.cache (writable for the service, deploy/site.service), and NODE_COMPILE_CACHE moves it.
// The other serving processes inherit the variable and start with the cache on; NODE_DISABLE_COMPILE_CACHE=1
// turns it off. Entries are keyed by each file's content: new code is compiled afresh, never run stale.
import cluster from 'node:cluster';
import module from 'node:module';
import path from 'node:path';
import { trimCompileCache } from './process/compile-cache.ts';

process.env.NODE_COMPILE_CACHE ||= path.join(import.meta.dirname, '..', 'node_modules', '.cache', 'node-compile');
// Before anything writes to it: only the primary, before it forks or builds.
if (cluster.isPrimary) trimCompileCache(process.env.NODE_COMPILE_CACHE);
module.enableCompileCache(process.env.NODE_COMPILE_CACHE);
await import('./main.ts');
// Node writes what it compiled only at a clean exit otherwise: a server that is killed, or that crashes, would
// leave the next start nothing. Its modules are loaded once main.ts has started serving.
module.flushCompileCache();
