import { styled, useTheme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import type { AlarmRecord } from '../../domain/alarms/record';
import { elapsedText } from '../../resources/devices/alarms/alarmValue';
import { useAlarmValue, useKindLabel } from '../../resources/devices/alarms/AlarmMark';
import { useNow } from '../../resources/devices/alarms/useNow';
import { MARK_LOOK } from '../../resources/devices/ReadingMark';

const ICON_STYLE = { fontSize: '1rem' } as const;
const Root = styled('span')({ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis' });

/**
 * A tile's most urgent alarm: its priority's icon and colour, its kind, value, priority and how long it has
 * stood ("⚠ 舱内氧浓度高 23.6 %（高，00:42）"), "+N" for the chamber's other alarms. Rendered only for a
 * chamber in alarm: it alone renders again as its clock moves each second, not the tile.
 */
export const AlarmLine = ({ alarm, more }: { alarm: AlarmRecord; more: number }) => {
  const translate = useTranslate();
  const kind = useKindLabel();
  const valueOf = useAlarmValue();
  const now = useNow();
  const { palette } = useTheme();
  const { paletteColor, Icon } = MARK_LOOK[alarm.priority];
  const value = valueOf(alarm);
  const text = translate('app.alarmMarks.tileLine', {
    kind: kind(alarm),
    value: value === '' ? '' : ` ${value}`,
    priority: translate(`app.alarmMarks.priority.${alarm.priority}`),
    elapsed: elapsedText((now - alarm.raisedAt) / 1_000),
  });
  return (
    <Root data-alarm-line={alarm.priority} style={{ color: paletteColor(palette) }}>
      <Icon style={ICON_STYLE} />
      {text}
      {more > 0 && ` +${more}`}
    </Root>
  );
};
