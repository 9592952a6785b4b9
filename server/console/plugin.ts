import fp from 'fastify-plugin';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSP_NONCE_PLACEHOLDER } from '../../src/domain/cspNonce';
import { upstreamNotFound } from '../http/plugin';

export interface ConsolePluginOptions {
  /** Absolute path of the built console (CONSOLE_DIR). */
  consoleDir: string;
  /** API_PREFIX: paths below it never fall back to the console. */
  apiPrefix: string;
}

const isUnder = (pathname: string, prefix: string): boolean =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * True for a page the console's router owns: a GET or HEAD that wants HTML, outside the APIs, whose
 * last path segment has no file extension (so a missing /app.js stays a 404).
 */
const isHistoryFallback = (request: FastifyRequest, apiPrefix: string): boolean => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '/';
  if (isUnder(pathname, apiPrefix) || isUnder(pathname, '/api')) return false;
  if (!(request.headers.accept ?? '').includes('text/html')) return false;
  const last = pathname.split('/').pop() ?? '';
  return !last.includes('.');
};

const NOT_BUILT = 'The console is not built. Run `npm run build`, then reload this page.\n';

const readIndex = async (indexFile: string): Promise<string | undefined> => {
  try {
    return await readFile(indexFile, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Serves the built console from CONSOLE_DIR, with the history fallback to index.html for the
 * console's own routes. Hashed assets (assets/) are cached for a year; index.html is revalidated.
 * index.html is never sent as a file: each page gets a nonce of its own for its styles, written in
 * place of the build's placeholder and allowed by that response's Content-Security-Policy
 * (server/security/headers.ts). It is read on every page load, a few kB, so a rebuild shows at once.
 * The build writes brotli and gzip copies beside each text file (vite.config.ts); they are sent by
 * Accept-Encoding (brotli first), with `Vary` so a shared cache keeps one copy per encoding.
 * Without an index.html the server still starts (the APIs work) and pages answer 503.
 */
export const consolePlugin = fp<ConsolePluginOptions>(
  async (app, options) => {
    const { consoleDir, apiPrefix } = options;
    const indexFile = path.join(consoleDir, 'index.html');
    try {
      await access(indexFile);
    } catch {
      app.log.warn(`no console at ${consoleDir}: run \`npm run build\`; the APIs work meanwhile`);
    }

    await app.register(fastifyStatic, {
      root: consoleDir,
      wildcard: true,
      // index.html is sent as the page below, never as a file, which would carry no nonce.
      index: false,
      allowedPath: (pathname) => pathname !== '/index.html',
      cacheControl: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        res.setHeader('vary', 'Accept-Encoding');
        const relative = path.relative(consoleDir, filePath).split(path.sep).join('/');
        res.setHeader(
          'cache-control',
          relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });

    const sendPage = async (reply: FastifyReply): Promise<FastifyReply> => {
      const page = await readIndex(indexFile);
      if (page === undefined) return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
      const nonce = reply.styleNonce();
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(page.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
    };

    app.get('/', (_request, reply) => sendPage(reply));

    app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      if (isUnder(pathname, apiPrefix)) return upstreamNotFound(request, reply);
      if (!isHistoryFallback(request, apiPrefix)) {
        return reply.code(404).type('text/plain; charset=utf-8').send('Not Found\n');
      }
      return sendPage(reply);
    });
  },
  {
    name: 'oxygen-console',
    fastify: '5.x',
    // Pages carry a style nonce in their CSP; unknown API paths answer in the envelope.
    dependencies: ['oxygen-security-headers', 'oxygen-http'],
    decorators: { reply: ['styleNonce'] },
  },
);
