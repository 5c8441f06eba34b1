import type { StoreLocation } from './store/open-store.js';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './store/postgres-db.js';

export interface Config {
  store: StoreLocation;
  host: string;
  port: number;
  bodyLimitBytes: number;
  logLevel: string;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

/** Where the store lives: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR (default ./data). */
export function storeLocation(env: NodeJS.ProcessEnv = process.env): StoreLocation {
  if (!env.DATABASE_URL) return { dataDir: env.DATA_DIR || './data' };
  return {
    databaseUrl: env.DATABASE_URL,
    statementTimeoutMs: integer(env, 'STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS, 0),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    store: storeLocation(env),
    host: env.HOST || '127.0.0.1',
    // 0 picks a free port.
    port: integer(env, 'PORT', 3000, 0),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_MB', 64, 1) * 1024 * 1024,
    logLevel: env.LOG_LEVEL || 'info',
  };
}
