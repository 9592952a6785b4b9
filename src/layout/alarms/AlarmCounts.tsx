import { Box, Chip, Tooltip } from '@mui/material';
import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { alarmCounts } from '../../domain/alarms/open';
import { ALARM_PRIORITIES, type AlarmPriority } from '../../domain/alarms/rules';
import { newestStanding, standingAlarmsLink } from '../../domain/alarms/signals';
import { useOpenAlarms } from '../../providers/alarms';

/** High red, medium amber, low neutral; a priority with nothing standing fades. */
const LOOKS: Record<AlarmPriority, { backgroundColor: string; color: string }> = {
  high: { backgroundColor: '#d32f2f', color: '#fff' },
  medium: { backgroundColor: '#ffb300', color: 'rgba(0, 0, 0, 0.87)' },
  low: { backgroundColor: 'rgba(255, 255, 255, 0.24)', color: 'inherit' },
};

/**
 * The app bar's standing alarms by priority, each a link to the alarm list showing them. The root's data
 * attributes (the counts, and the newest-raised standing alarm's id) come from the same set in the same
 * render, so whoever watches them never sees a count without its alarm.
 */
export const AlarmCounts = () => {
  const translate = useTranslate();
  const open = useOpenAlarms();
  const { counts, newest } = useMemo(() => ({ counts: alarmCounts(open), newest: newestStanding(open) }), [open]);
  return (
    <Box
      data-alarm-counts=""
      data-high={counts.high}
      data-medium={counts.medium}
      data-low={counts.low}
      data-newest-alarm={newest?.id ?? ''}
      sx={{ display: 'inline-flex', gap: 0.5, mx: 1 }}
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
              aria-label={label}
              label={`${translate(`app.alarmSignals.priorities.${priority}`)} ${counts[priority]}`}
              sx={{ ...LOOKS[priority], fontWeight: 600, opacity: counts[priority] === 0 ? 0.6 : 1 }}
            />
          </Tooltip>
        );
      })}
    </Box>
  );
};
