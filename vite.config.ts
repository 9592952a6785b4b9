import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { helpPages } from './scripts/helpPages';
import { CSP_NONCE_PLACEHOLDER } from './src/domain/cspNonce';

/** `npm run dev` proxies the upstream contract, REST and live stream to a server on SERVER_URL. */
const serverUrl = process.env.SERVER_URL ?? 'http://127.0.0.1:8080';
const apiPrefix = process.env.API_PREFIX ?? '/upstream';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its own header costs. */
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `.br` and `.gz` beside every text asset of the build, at the highest levels: compressed once
 * here, the server (@fastify/static `preCompressed`) sends them by Accept-Encoding at no cost per request.
 */
const precompress = (): Plugin => {
  let outDir = '';
  return {
    name: 'oxygen-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          if (content.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length } }),
            gzipAsync(content, { level: zlib.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
};

type ModuleInfoOf = (id: string) => { isEntry: boolean; importers: readonly string[] } | null;

/**
 * Puts every module the entry imports statically, the whole first script, in one chunk instead of the
 * few dozen small shared chunks the bundler would cut it into: they are all fetched on the first visit
 * anyway, and each file costs a request, its response headers (the security headers are about 1 kB)
 * and its own compression dictionary (docs/console.md, "Loading"). What only later pages import
 * stays split by the bundler.
 */
const firstScript = (): Plugin => {
  const initial = new Map<string, boolean>();
  const isInitial = (id: string, moduleInfo: ModuleInfoOf): boolean => {
    const known = initial.get(id);
    if (known !== undefined) return known;
    initial.set(id, false); // a cycle back here proves nothing
    const info = moduleInfo(id);
    const result =
      info !== null && (info.isEntry || (!id.includes('/node_modules/') && info.importers.some((importer) => isInitial(importer, moduleInfo))));
    initial.set(id, result);
    return result;
  };
  return {
    name: 'oxygen-first-script',
    apply: 'build',
    buildStart() {
      initial.clear();
    },
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [{ name: (id, context) => (isInitial(id, (moduleId) => context.getModuleInfo(moduleId)) ? 'start' : null) }],
            },
          },
        },
      },
    }),
  };
};

export default defineConfig(({ mode }) => ({
  plugins: [react(), helpPages(), precompress(), firstScript()],
  // The mocked console (`npm run dev:mock`, mode "mock") serves msw's service worker; every other build
  // the web app's manifest, icons and shell-keeping worker (docs/console.md, "Phone and installing").
  publicDir: mode === 'mock' ? 'mocks/public' : 'public',
  // The server puts each page's own nonce here; emotion's styles carry it (src/styleCache.ts).
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    // The mocked console has no server behind it; everything else proxies to one.
    proxy: mode === 'mock' ? undefined : { [apiPrefix]: serverUrl, '/api/v1': serverUrl },
  },
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
}));
