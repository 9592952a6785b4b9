import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Box, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import type { RangeLevel, RangeMark } from '../../domain/readingRanges';

/** Each priority's colour and icon: a reading's mark and an alarm's alike, so the two never disagree. */
export const MARK_LOOK: Record<RangeLevel, { color: string; Icon: typeof ErrorOutlineIcon }> = {
  high: { color: 'error.main', Icon: ErrorOutlineIcon },
  medium: { color: 'warning.dark', Icon: WarningAmberIcon },
  low: { color: 'info.main', Icon: InfoOutlinedIcon },
};

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
  const { color, Icon } = MARK_LOOK[mark.level];
  const threshold = translate(`app.monitor.comparison.${mark.comparison}`, { limit: `${limitText(mark.limit, digits)} ${unit}`.trim() });
  const title = translate('app.monitor.mark', { level: translate(`app.monitor.levels.${mark.level}`), threshold });
  return (
    // describeChild: the value stays the element's name, the threshold its description.
    <Tooltip title={title} describeChild>
      <Box component="span" data-mark={mark.level} sx={{ color, fontWeight: 600, display: 'inline-flex', alignItems: 'center', gap: 0.25 }}>
        <Icon sx={{ fontSize: '1rem' }} />
        {children}
      </Box>
    </Tooltip>
  );
};
