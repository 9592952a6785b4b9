import { memo } from 'react';
import { TRACE_SPAN_MS, type PressureTrace } from './fleetStore';

const WIDTH = 120;
const HEIGHT = 28;
/** The smallest span of pressure drawn full height, ATA: noise on a steady chamber stays flat. */
const MIN_SPAN_ATA = 0.2;

/**
 * The last 15 minutes of cabin pressure as one SVG polyline: cheap enough for every tile on screen to redraw
 * at each reading (a chart component per tile would not be, at 1,000 chambers).
 */
export const Sparkline = memo(function Sparkline({ trace, label }: { trace: PressureTrace | undefined; label: string }) {
  const { times = [], values = [] } = trace ?? {};
  const newest = times[times.length - 1] ?? 0;
  const low = Math.min(...values);
  const high = Math.max(...values, low + MIN_SPAN_ATA);
  const points = times
    .map((time, index) => {
      const x = ((time - (newest - TRACE_SPAN_MS)) / TRACE_SPAN_MS) * WIDTH;
      const y = HEIGHT - 2 - (((values[index] ?? low) - low) / (high - low)) * (HEIGHT - 4);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  return (
    <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} data-points={times.length}>
      <line x1={0} y1={HEIGHT - 1} x2={WIDTH} y2={HEIGHT - 1} stroke="currentColor" strokeOpacity={0.15} />
      {times.length > 1 && <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} />}
    </svg>
  );
});
