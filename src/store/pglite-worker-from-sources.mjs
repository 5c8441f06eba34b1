// The store's thread when the service runs from its TypeScript sources (development, tests): a
// worker thread does not inherit the parent's loaders, so it registers tsx itself.
import { register } from 'tsx/esm/api';

register();
await import('./pglite-worker.ts');
