import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Tooltip, useTheme, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import type { RangeLevel, RangeMark } from '../../domain/readingRanges';

/**
 * How a level looks wherever it marks something: its colour and its icon (never colour alone). `color` is
 * for `sx`; `paletteColor` the same colour for an inline style, where a live screen cannot afford `sx`.
 */
export const MARK_LOOK: Record<RangeLevel, { color: string; paletteColor: (palette: Theme['palette']) => string; Icon: typeof ErrorOutlineIcon }> = {
  high: { color: 'error.main', paletteColor: (palette) => palette.error.main, Icon: ErrorOutlineIcon },
  medium: { color: 'warning.dark', paletteColor: (palette) => palette.warning.dark, Icon: WarningAmberIcon },
  low: { color: 'info.main', paletteColor: (palette) => palette.info.main, Icon: InfoOutlinedIcon },
};

const ICON_STYLE = { fontSize: '1rem' } as const;

const limitText = (limit: RangeMark['limit'], digits: number): string =>
  typeof limit === 'number' ? limit.toFixed(digits) : `${limit[0].toFixed(digits)}–${limit[1].toFixed(digits)}`;

interface ReadingMarkProps {
  mark: RangeMark;
  /** The unit as the header shows it. */
  unit: string;
  digits: number;
  children: ReactNode;
}

/** A value outside its normal range: its colour and an icon (never colour alone), the threshold in a tooltip. */
export const ReadingMark = ({ mark, unit, digits, children }: ReadingMarkProps) => {
  const translate = useTranslate();
  const { palette } = useTheme();
  const { paletteColor, Icon } = MARK_LOOK[mark.level];
  const threshold = translate(`app.monitor.comparison.${mark.comparison}`, { limit: `${limitText(mark.limit, digits)} ${unit}`.trim() });
  const title = translate('app.monitor.mark', { level: translate(`app.monitor.levels.${mark.level}`), threshold });
  return (
    // describeChild: the value stays the element's name, the threshold its description. Inline styles,
    // not `sx`: the live screens render their marks each second (MonitorRow says why).
    <Tooltip title={title} describeChild>
      <span data-mark={mark.level} style={{ color: paletteColor(palette), fontWeight: 600, display: 'inline-flex', alignItems: 'center', gap: 2 }}>
        <Icon style={ICON_STYLE} />
        {children}
      </span>
    </Tooltip>
  );
};
