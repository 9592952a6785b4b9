import './zodWithoutEval';
import { StrictMode } from 'react';
import { CacheProvider } from '@emotion/react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { defaultConfig } from './config';
import { loadMessages, storedLocale } from './i18n';
import { registerServiceWorker } from './pwa';
import { createStyleCache } from './styleCache';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// `npm run dev:mock` answers every call with the msw handlers in the browser: no server at all.
const backend =
  import.meta.env.MODE === 'mock'
    ? import('../mocks/browser').then(({ startMockWorker }) => startMockWorker(defaultConfig.upstreamBase, defaultConfig.restBase))
    : Promise.resolve();

// The stored language's messages come first, so the first render is already in it.
void Promise.all([backend, loadMessages(storedLocale())]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <CacheProvider value={createStyleCache()}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </CacheProvider>
    </StrictMode>,
  ),
);

registerServiceWorker();
