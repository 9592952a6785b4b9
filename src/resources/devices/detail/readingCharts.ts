import type { HistoryReading } from '../../../domain/history';
import type { Unit } from '../../types';

/** One line of a chart: a reading kept in history and the unit it is shown in. */
export interface ChartLine {
  reading: HistoryReading;
  unit: Unit;
}

export interface ReadingChartSpec {
  /** Named under app.detail.charts. */
  key: 'pressure' | 'oxygen' | 'air' | 'vitals';
  lines: readonly ChartLine[];
}

/**
 * The detail page's charts, in the order an operator asks (docs/monitoring.md): how far along the session
 * is (pressure against its set point), the cabin air, then the occupant.
 */
export const READING_CHARTS: readonly ReadingChartSpec[] = [
  { key: 'pressure', lines: [{ reading: 'RCP', unit: 'ata' }, { reading: 'SP', unit: 'ata' }] },
  { key: 'oxygen', lines: [{ reading: 'RCPi02', unit: 'percent' }, { reading: 'RGPi02', unit: 'percent' }] },
  { key: 'air', lines: [{ reading: 'RCT', unit: 'celsius' }, { reading: 'RCRH', unit: 'relativeHumidity' }] },
  {
    key: 'vitals',
    lines: [
      { reading: 'HmHR', unit: 'bpm' },
      { reading: 'HmSP02', unit: 'percent' },
      { reading: 'HmBPSys', unit: 'mmHg' },
      { reading: 'HmBPDia', unit: 'mmHg' },
    ],
  },
];
