import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build` puts the web app, from src/api and dist/api alike. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

// The app loads only its own files; ECharts sets inline styles on its tooltips.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};

interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
}

function load(path: string): Asset {
  const body = readFileSync(path);
  return { type: TYPES[extname(path)] ?? 'application/octet-stream', body, gzipped: gzipSync(body) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  void reply.header('content-type', asset.type).header('vary', 'accept-encoding');
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('content-encoding', 'gzip').send(asset.gzipped);
  }
  return reply.send(asset.body);
}

/**
 * The web app at `/` and its files at `/assets/...`: read once at start and served from memory,
 * gzipped, so serving them costs no disk read and no path from a request ever reaches the file
 * system. The file names under /assets carry a content hash, so they are cached for good.
 */
export function webAppRoutes(webRoot: string = DEFAULT_WEB_ROOT): FastifyPluginAsync {
  return async (app) => {
    const config = { public: true };
    const schema = { hide: true };
    const indexPath = join(webRoot, 'index.html');
    if (!existsSync(indexPath)) {
      app.get('/', { config, schema }, (_request, reply) =>
        reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The web interface is not built: run `npm run build` (npm start does it).'),
      );
      return;
    }
    const index = load(indexPath);
    const assetsDir = join(webRoot, 'assets');
    const assets = new Map(
      (existsSync(assetsDir) ? filesUnder(assetsDir) : []).map((path) => [
        relative(assetsDir, path).split('\\').join('/'),
        load(path),
      ]),
    );

    app.get('/', { config, schema }, (request, reply) => send(request, reply.headers(PAGE_HEADERS), index));
    app.get('/assets/*', { config, schema }, (request, reply) => {
      const asset = assets.get((request.params as { '*': string })['*']);
      if (!asset) return reply.status(404).send({ error: 'No such file' });
      return send(request, reply.header('cache-control', 'public, max-age=31536000, immutable'), asset);
    });
  };
}
