import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { defaultConfig } from './config';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// `npm run dev:mock` answers every call with the msw handlers in the browser: no server at all.
const backend =
  import.meta.env.MODE === 'mock'
    ? import('../mocks/browser').then(({ startMockWorker }) => startMockWorker(defaultConfig.upstreamBase, defaultConfig.restBase))
    : Promise.resolve();

void backend.then(() =>
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  ),
);
