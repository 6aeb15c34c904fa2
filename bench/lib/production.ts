// The production recipe's memory (issue 31, item 3): the product restarted on the same data with nginx
// serving the build from disk in front of it (NGINX_SERVES_PAGES=true, TRUST_PROXY=true, as the README's
// "Production" sets up deploy/), and its PSS summed over every process of the product and of nginx:
// - idle right after the restart, which serves the existing build at once (issue 31, item 2): what a
//   deployed server holds once the renderer kept after a publish has been let go (10 idle minutes);
// - once more after one publish, with that renderer waiting (decision 0044).
import { SERVING_NODE_FLAGS } from '../../server/process/node-flags.ts';
import path from 'node:path';
import { freePort, login } from '../../tests/helpers/fetch-client.ts';
import { processTreePss, startNodeProcess, type ProductProcess } from './product.ts';
import { measurePublish, pageContains, settle } from './publish-measures.ts';
import type { ScaledSeed } from './seed-scaled.ts';
import { startNginx } from './tools.ts';

export interface ProductionMemory {
  /** From starting the server again on a data directory with a build to that build being served. */
  restartServedSeconds: number;
  /** Whether the restart served without building (nothing built or building once it served). */
  restartBuilt: boolean;
  /** PSS of the product's processes and nginx's, idle after the restart. */
  idlePssBytes: number;
  processes: number;
  /** The same after one publish, the renderer kept for the next (decision 0044). */
  afterPublishPssBytes: number;
  afterPublishSeconds: number;
}

export async function measureProductionRecipe(options: {
  env: Record<string, string>;
  dataDir: string;
  seed: ScaledSeed;
  admin: { email: string; password: string };
  cleanups: (() => Promise<void> | void)[];
}): Promise<ProductionMemory> {
  const { env, dataDir, seed } = options;
  const port = await freePort();
  const newsPath = `/news/${seed.sections.news.slug}/`;
  const started = performance.now();
  const product: ProductProcess = await startNodeProcess('server/index.ts', {
    // As `npm start` and deploy/site.service start it.
    nodeArgs: SERVING_NODE_FLAGS,
    env: { ...env, PORT: String(port), NGINX_SERVES_PAGES: 'true', TRUST_PROXY: 'true' },
    port,
    timeoutMs: 300_000,
    // Served means answered: Node holds no page here, so readiness is what says a build is live.
    ready: async (base) => (await fetch(`${base}/readyz`)).status === 200,
  });
  options.cleanups.push(() => product.stop());
  const restartServedSeconds = (performance.now() - started) / 1000;
  const nginx = startNginx({
    root: path.join(dataDir, 'builds/current'),
    port: await freePort(),
    workDir: path.join(dataDir, 'nginx-production'),
    proxyTo: product.base,
  });
  options.cleanups.push(() => nginx.stop());
  if (!(await pageContains(`${nginx.base}${newsPath}`, 'Bench news'))) throw new Error(`nginx did not serve ${newsPath} from the build`);
  const admin = await login(product.base, options.admin.email, options.admin.password);
  const status = (await (await admin.json('GET', '/api/admin/publish')).json()) as { state: string; last_success: unknown };
  const restartBuilt = status.state === 'building' || status.last_success !== null;
  await settle(admin);

  const measure = () => {
    const ownPid = nginx.pid();
    const productPss = processTreePss(product.pid);
    const nginxPss = ownPid === null ? { bytes: 0, processes: 0 } : processTreePss(ownPid);
    return { bytes: productPss.bytes + nginxPss.bytes, processes: productPss.processes + nginxPss.processes };
  };
  const idle = measure();
  const publish = await measurePublish(product, admin, seed, 1000, nginx.base);
  await settle(admin);
  const afterPublish = measure();
  return {
    restartServedSeconds,
    restartBuilt,
    idlePssBytes: idle.bytes,
    processes: idle.processes,
    afterPublishPssBytes: afterPublish.bytes,
    afterPublishSeconds: publish.seconds,
  };
}
