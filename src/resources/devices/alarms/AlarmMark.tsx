import { Box, Chip } from '@mui/material';
import { memo } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { AlarmRecord } from '../../../domain/alarms/record';
import type { AlarmPriority } from '../../../domain/alarms/rules';
import { isUnacked } from '../../../domain/alarms/open';
import { isLocale } from '../../../domain/locales';
import { alarmsConfig } from '../../alarms/config';
import { MARK_LOOK } from '../ReadingMark';
import { ALARM_VALUE_FORMATS } from './alarmValue';

/** Each priority's chip colour, as its mark's (MARK_LOOK). */
export const PRIORITY_CHIP_COLOR: Readonly<Record<AlarmPriority, 'error' | 'warning' | 'info'>> = { high: 'error', medium: 'warning', low: 'info' };

/**
 * The alarms' labels in the reader's language, from their configuration: fields, kinds, priorities, states.
 * (Read there rather than through the catalogues, which hold only the registered resources' labels.)
 */
export const useAlarmLabels = () => {
  const [locale] = useLocaleState();
  return alarmsConfig.labels[isLocale(locale) ? locale : 'zh-CN'];
};

/** The alarm's kind in the reader's language. */
export const useKindLabel = () => {
  const { choices } = useAlarmLabels();
  return (alarm: AlarmRecord): string => choices.kind[alarm.kind];
};

/** The alarm's value with its unit ("23.6 %"), or nothing for the kinds without one. */
export const useAlarmValue = () => {
  const translate = useTranslate();
  return (alarm: AlarmRecord, value: number | null = alarm.value): string => {
    const format = ALARM_VALUE_FORMATS[alarm.kind];
    if (format === undefined || value === null) return '';
    const unit = translate(`crud.units.${format.unit}`);
    const per = format.perMinute ? translate('app.alarmMarks.perMinute', { unit }) : unit;
    return `${value.toFixed(format.digits)} ${per}`;
  };
};

/**
 * An alarm as a chip: its priority's colour and icon (never colour alone), its kind and priority in words;
 * filled while it waits for acknowledgement, outlined after; its value and that state in its tooltip.
 */
export const AlarmChip = ({ alarm }: { alarm: AlarmRecord }) => {
  const translate = useTranslate();
  const kind = useKindLabel()(alarm);
  const value = useAlarmValue()(alarm);
  const { Icon } = MARK_LOOK[alarm.priority];
  const priority = translate(`app.monitor.levels.${alarm.priority}`);
  const state = translate(isUnacked(alarm) ? 'app.alarmMarks.unacked' : 'app.alarmMarks.acked');
  return (
    <Chip
      size="small"
      data-alarm-chip={alarm.priority}
      color={PRIORITY_CHIP_COLOR[alarm.priority]}
      variant={isUnacked(alarm) ? 'filled' : 'outlined'}
      icon={<Icon />}
      label={translate('app.alarmMarks.chip', { kind, priority })}
      title={[value, state].filter(Boolean).join(' · ')}
    />
  );
};

/**
 * A chamber's standing alarms where space is short: the most urgent as a chip, "+N" for the others.
 * Memoised on the list, which keeps its identity while the alarms stay the same: a live row renders each
 * second, its chip only when its alarms change.
 */
export const AlarmMarks = memo(function AlarmMarks({ alarms }: { alarms: readonly AlarmRecord[] }) {
  const translate = useTranslate();
  const [first] = alarms;
  if (first === undefined) return null;
  const more = alarms.length - 1;
  return (
    <Box component="span" data-alarms={alarms.length} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}>
      <AlarmChip alarm={first} />
      {more > 0 && (
        <Box component="span" title={translate('app.alarmMarks.more', { count: more })} sx={{ fontWeight: 600 }}>
          +{more}
        </Box>
      )}
    </Box>
  );
});
