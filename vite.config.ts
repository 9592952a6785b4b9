import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { helpPages } from './scripts/helpPages';

/** `npm run dev` proxies the upstream contract, REST and live stream to a server on SERVER_URL. */
const serverUrl = process.env.SERVER_URL ?? 'http://127.0.0.1:8080';
const apiPrefix = process.env.API_PREFIX ?? '/upstream';

export default defineConfig(({ mode }) => ({
  plugins: [react(), helpPages()],
  // Only the mocked console (`npm run dev:mock`, mode "mock") serves msw's service worker.
  publicDir: mode === 'mock' ? 'mocks/public' : false,
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
