import type { CpuShares } from './cpu';
import { describeDeployment, EMBEDDED, type Deployment } from './deployment';
import { INGEST_TARGET } from './fleet';
import type { Percentiles } from './ingest-load';
import { machine } from './report';

/**
 * bench:ingest's results: one run per configuration (bench/deployment.ts), each against its targets,
 * and the table that sets them side by side.
 */

/** The scale-out configuration's targets on 2 cores (docs/scaling.md): half the embedded rate, the same acknowledgement. */
export const SCALEOUT_TARGET = { messagesPerSecond: 5_000, ackP99Ms: 200 } as const;

/** A configuration's targets: the embedded one's all, any other's the scale-out ones. */
export const targetOf = (deployment: Deployment) => (describeDeployment(deployment) === describeDeployment(EMBEDDED) ? INGEST_TARGET : SCALEOUT_TARGET);

export interface IngestRun {
  configuration: string;
  deployment: Deployment;
  target: ReturnType<typeof targetOf>;
  offeredPerSecond: number;
  sent: number;
  /** Acknowledged to the chambers: by the server after its commit (embedded), by Mosquitto on receipt. */
  acked: number;
  failed: number;
  /** Every acknowledged reading stored once: rows of the run, their distinct (device, Time), and what is missing. */
  stored: { rows: number; distinct: number; duplicates: number; missing: number; exactlyOnce: boolean };
  /**
   * Messages Mosquitto dropped meanwhile (its $SYS counter; every client of the broker counted): QoS 1
   * messages beyond a client's max_queued_messages, acknowledged to their chamber and never delivered.
   */
  brokerDropped: number | null;
  persistedPerSecond: number;
  lowestFiveSecondPerSecond: number;
  ackMs: Percentiles;
  liveMs: Percentiles;
  liveEvents: number;
  /** Server memory per idle chamber connection: with the embedded broker only (else the broker holds them). */
  bytesPerIdleConnection: number | null;
  /** All instances' CPU per acknowledged message, µs. */
  cpuUsPerMessage: number | null;
  cpu: CpuShares;
  /** Where the time went: the parts by cores busy, the profiled instance's busiest functions. */
  bottleneck: string;
  /** The measuring process's cores busy (its live streams). */
  measuringCpuShare: number;
  /** Messages each instance held unsettled, sampled every second. */
  heldBySecond: Percentiles[];
  load: number;
  misses: string[];
}

export const runMisses = (run: Omit<IngestRun, 'misses'>): string[] => {
  const t = run.target;
  const name = run.configuration;
  return [
    run.persistedPerSecond < t.messagesPerSecond ? `${name}: persisted ${run.persistedPerSecond} messages/s < ${t.messagesPerSecond}` : '',
    run.ackMs.p99 > t.ackP99Ms ? `${name}: acknowledgement p99 ${run.ackMs.p99} ms > ${t.ackP99Ms} ms` : '',
    'liveP95Ms' in t && run.liveMs.p95 > t.liveP95Ms ? `${name}: live p95 ${run.liveMs.p95} ms > ${t.liveP95Ms} ms` : '',
    run.liveEvents === 0 ? `${name}: no reading reached a live stream` : '',
    'bytesPerIdleConnection' in t && run.bytesPerIdleConnection !== null && run.bytesPerIdleConnection > t.bytesPerIdleConnection
      ? `${name}: ${(run.bytesPerIdleConnection / 1024).toFixed(1)} KB per idle connection > ${t.bytesPerIdleConnection / 1024} KB`
      : '',
    run.failed > 0 ? `${name}: ${run.failed} publishes failed` : '',
    run.stored.missing > 0
      ? `${name}: ${run.stored.missing} acknowledged readings are not stored${run.brokerDropped === null || run.brokerDropped === 0 ? '' : ` (Mosquitto's dropped counter rose by ${run.brokerDropped} meanwhile, all its clients counted: messages beyond a client's max_queued_messages)`}`
      : '',
    run.stored.duplicates > 0 ? `${name}: ${run.stored.duplicates} readings stored twice` : '',
  ].filter((miss) => miss !== '');
};

export interface IngestReport {
  date: string;
  machine: ReturnType<typeof machine>;
  settings: Record<string, unknown>;
  ceiling: { messagesPerSecond: number; ackMs: Percentiles; chambersCpuShare: number };
  runs: IngestRun[];
  met: boolean;
  misses: string[];
}

const targetText = (run: IngestRun, key: 'messagesPerSecond' | 'ackP99Ms' | 'liveP95Ms'): string => {
  const t = run.target as Partial<Record<typeof key, number>>;
  const value = t[key];
  return value === undefined ? '' : key === 'messagesPerSecond' ? ` (≥ ${value})` : ` (≤ ${value})`;
};

/** The runs side by side, one column each: the summary printed and kept beside the JSON. */
export const ingestTable = (report: IngestReport): string[] => {
  const runs = report.runs;
  const row = (measure: string, cell: (run: IngestRun) => string): string => `| ${measure} | ${runs.map(cell).join(' | ')} |`;
  return [
    `| measure | ${runs.map((run) => run.configuration).join(' | ')} |`,
    `|---|${runs.map(() => '--:').join('|')}|`,
    row('offered messages/s', (run) => String(run.offeredPerSecond)),
    row('persisted messages/s (target)', (run) => `${run.persistedPerSecond}${targetText(run, 'messagesPerSecond')}`),
    row('persisted messages/s, slowest 5 s', (run) => String(run.lowestFiveSecondPerSecond)),
    row('acknowledgement p50 / p99, ms (target)', (run) => `${run.ackMs.p50} / ${run.ackMs.p99}${targetText(run, 'ackP99Ms')}`),
    row('device-to-browser p50 / p95, ms (target)', (run) => `${run.liveMs.p50} / ${run.liveMs.p95}${targetText(run, 'liveP95Ms')}`),
    row('sent / acknowledged / stored', (run) => `${run.sent} / ${run.acked} / ${run.stored.distinct}`),
    row('every acknowledged reading stored exactly once', (run) => (run.stored.exactlyOnce ? 'yes' : `NO: ${run.stored.missing} missing, ${run.stored.duplicates} twice`)),
    row('messages Mosquitto dropped meanwhile (all its clients)', (run) => (run.brokerDropped === null ? '' : String(run.brokerDropped))),
    row('server memory per idle connection, KB', (run) => (run.bytesPerIdleConnection === null ? '(broker holds them)' : (run.bytesPerIdleConnection / 1024).toFixed(1))),
    row('server CPU per message, µs (all instances)', (run) => String(run.cpuUsPerMessage ?? '')),
    row('cores busy, by part', (run) => run.cpu.parts.map((part) => `${part.name} ${part.cores}`).join(', ')),
    row('messages held unsettled per instance, p50 / max', (run) => run.heldBySecond.map((held) => `${held.p50} / ${held.max}`).join('; ')),
    row('load average at the end', (run) => String(run.load)),
    '',
    ...runs.map((run) => `Bottleneck (${run.configuration}): ${run.bottleneck}.`),
  ];
};
