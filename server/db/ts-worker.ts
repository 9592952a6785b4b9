import { Worker } from 'node:worker_threads';

/**
 * Starts a thread running one of our modules, given by its source URL (`./x.ts` beside its caller).
 * From source (package.json: node --import tsx) the thread loads it through tsx as the server's own
 * modules are; tsx's API is resolved from the working directory, as it is for the server itself.
 * Compiled (`npm run build`, dist/server: every entry and chunk in one directory, so the caller's
 * `./x.ts` names a file beside it) the thread runs `x.js`, with plain node. Unreferenced: an idle thread
 * must not keep the process alive; its owner stops it.
 */
const fromSource = import.meta.url.endsWith('.ts');

export const startTsWorker = (module: URL, workerData: unknown): Worker => {
  const worker = fromSource
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`, { eval: true, workerData })
    : new Worker(new URL(module.href.replace(/\.ts$/, '.js')), { workerData });
  worker.unref();
  return worker;
};
