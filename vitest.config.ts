import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // PGlite boots a WebAssembly Postgres per store (about 3 s on two cores).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
