import { Box, Chip, Tooltip } from '@mui/material';
import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ALARM_PRIORITIES, type AlarmPriority } from '../../domain/alarms/rules';
import { newestStanding, standingAlarmsLink } from '../../domain/alarms/signals';
import { useAlarmCounts, useOpenAlarms } from '../../providers/alarms';
import { THUMB, usePhone } from '../../resources/generate/usePhone';

/** High red, medium amber, low neutral; a priority with nothing standing is only outlined. */
const LOOKS: Record<AlarmPriority, { backgroundColor: string; color: string }> = {
  high: { backgroundColor: '#d32f2f', color: '#fff' },
  medium: { backgroundColor: '#ffb300', color: 'rgba(0, 0, 0, 0.87)' },
  low: { backgroundColor: '#e0e0e0', color: 'rgba(0, 0, 0, 0.87)' },
};
const NONE_STANDING = { color: 'inherit', borderColor: 'currentColor' } as const;
const THUMB_CHIP = { ...THUMB, borderRadius: 22, '& .MuiChip-label': { px: 1 } } as const;

/**
 * The app bar's standing alarms by priority, each a link to the alarm list showing them. The root's data
 * attributes (the counts, and the newest-raised standing alarm's id) are read from the same held set in
 * the same render, so whoever watches them never sees a count without its alarm.
 */
export const AlarmCounts = () => {
  const translate = useTranslate();
  const counts = useAlarmCounts();
  const open = useOpenAlarms();
  const newest = useMemo(() => newestStanding(open), [open]);
  // A phone's app bar holds the three counts only with short words, each a thumb's size (44 px).
  const phone = usePhone();
  const word = (priority: AlarmPriority) => translate(`app.${phone ? 'phone' : 'alarmSignals'}.priorities.${priority}`);
  return (
    <Box
      data-alarm-counts=""
      data-high={counts.high}
      data-medium={counts.medium}
      data-low={counts.low}
      data-newest-alarm={newest?.id ?? ''}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mx: phone ? 0.5 : 1 }}
    >
      {ALARM_PRIORITIES.map((priority) => {
        const label = translate('app.alarmSignals.count', { priority: translate(`app.alarmSignals.priorities.${priority}`), count: counts[priority] });
        return (
          <Tooltip key={priority} title={label}>
            <Chip
              component={Link}
              to={standingAlarmsLink(priority)}
              clickable
              size="small"
              variant={counts[priority] === 0 ? 'outlined' : 'filled'}
              aria-label={label}
              label={`${word(priority)} ${counts[priority]}`}
              sx={{ ...(counts[priority] === 0 ? NONE_STANDING : LOOKS[priority]), fontWeight: 600, ...(phone ? THUMB_CHIP : {}) }}
            />
          </Tooltip>
        );
      })}
    </Box>
  );
};
