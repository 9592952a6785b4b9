import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.spec.{ts,tsx}', 'tests/unit/**/*.spec.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/unit/setup.ts'],
          testTimeout: 45_000,
          // Vitest's default leaves one core for itself; jsdom files are CPU-bound and its own share is small,
          // so every core runs a file (on 2 cores: 3.4 instead of 7.2 minutes).
          maxWorkers: availableParallelism(),
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.spec.ts', 'simulator/**/*.spec.ts', 'tests/server/**/*.spec.ts'],
          environment: 'node',
          // Both stores run in one process; PostgreSQL tests use their own throwaway databases.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.spec.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A page polled for what it shows answers within seconds on a loaded machine, not always within
          // expect.poll's default second.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
