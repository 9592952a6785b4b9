import { Worker } from 'node:worker_threads';

/**
 * Starts a thread running a TypeScript module of ours, loaded through tsx as the server's own modules
 * are (package.json: node --import tsx); tsx's API is resolved from the working directory, as it is for
 * the server itself. Unreferenced: an idle thread must not keep the process alive; its owner stops it.
 */
export const startTsWorker = (module: URL, workerData: unknown): Worker => {
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
  const worker = new Worker(bootstrap, { eval: true, workerData });
  worker.unref();
  return worker;
};
