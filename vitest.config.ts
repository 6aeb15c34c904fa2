import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Why the suite is split this way, and what each choice saved: docs/decisions/0039-test-suite-time.md.

/** Tests that touch module state shared between files (vi.mock, stubbed globals, fake timers) or run real builds. */
const NEEDS_ISOLATION = ['tests/src/lib/api/request.test.ts', 'tests/src/stores/**', 'tests/src/site-build.test.ts', 'tests/src/published-output.test.ts'];

// Node keeps the compiled code of every module it loads here and reuses it in the next process: the server's
// tests load the server natively in a process per file, and many start `node server/index.ts` or a CLI again
// (docs/decisions/0039-test-suite-time.md). Set before the workers fork, so they and what they spawn inherit it.
process.env.NODE_COMPILE_CACHE ??= path.resolve('node_modules/.cache/node-compile-cache');

export default defineConfig({
  test: {
    environment: 'node',
    // Two cores here, but most of the slow files wait on child processes (drills, CLIs, builds) rather than
    // compute: a third worker fills that idle time. More than three starves the CPU-bound ones (argon2, Astro).
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
    projects: [
      {
        extends: true,
        test: {
          name: 'pure',
          // Pure functions of the shared code and the browser side: nothing in them keeps state between files,
          // so one module graph per worker serves every file instead of one per file.
          include: ['tests/common/**/*.test.ts', 'tests/src/**/*.test.ts', 'tests/bench/**/*.test.ts'],
          exclude: NEEDS_ISOLATION,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: NEEDS_ISOLATION,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          // The server runs as `node server/index.ts` (type stripping, erasableSyntaxOnly): its tests load it the
          // same way, natively, instead of through Vite's module runner, which cost a third of the run.
          include: ['tests/server/**/*.test.ts'],
          experimental: { viteModuleRunner: false },
        },
      },
    ],
  },
});
