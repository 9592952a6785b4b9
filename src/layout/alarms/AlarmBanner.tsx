import { Box, Button, Stack } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import WarningIcon from '@mui/icons-material/Warning';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCanAccess, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { AlarmRecord } from '../../domain/alarms/record';
import { elapsedText, standingAlarmsLink, type Banner } from '../../domain/alarms/signals';
import { applyAlarmEvent } from '../../providers/alarms';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { THUMB, usePhone } from '../../resources/generate/usePhone';
import { useAlarmSignals } from './useAlarmSignals';
import { useAlarmText } from './useAlarmText';

const HIGH = '#c62828';
const HIGH_BRIGHT = '#ff1744';
const MEDIUM = '#ffc400';

const pulse = keyframes`
  0%, 100% { background-color: ${HIGH}; }
  50% { background-color: ${HIGH_BRIGHT}; }
`;

const LOOKS = {
  high: {
    color: '#fff',
    backgroundColor: HIGH,
    animation: `${pulse} 1s ease-in-out infinite`,
    // Someone who asked for less motion gets the strong red, steady.
    '@media (prefers-reduced-motion: reduce)': { animation: 'none', backgroundColor: '#b71c1c' },
  },
  medium: { color: 'rgba(0, 0, 0, 0.87)', backgroundColor: MEDIUM },
} as const;

/** The operator's acknowledgement of the banner's alarm, applied to the tab's alarms as soon as the server answers. */
const useAcknowledge = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (alarm: AlarmRecord) => dataProvider.alarmAction(alarm.id, 'ack', {}),
    onSuccess: (after) => applyAlarmEvent(queryClient, after),
    onError: (error) => notify(error.message, { type: 'error' }),
  });
};

/** The banner's words: the flood or the priority with its count, then the alarm it names. */
const Headline = ({ banner, now }: { banner: Banner; now: number }) => {
  const translate = useTranslate();
  const text = useAlarmText();
  const { shown } = banner;
  const title =
    banner.flood > 0
      ? translate('app.alarmSignals.flood', { count: banner.flood })
      : translate(`app.alarmSignals.title.${banner.priority}`, { count: banner.count });
  return (
    <Stack direction="row" spacing={1.5} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', minWidth: 0 }}>
      <WarningIcon aria-hidden />
      <Box component="strong" role="alert">
        {title}
      </Box>
      {banner.flood > 0 && <span>{translate('app.alarmSignals.firstOfFlood')}</span>}
      <Box component="span" sx={{ fontWeight: 600 }} data-alarm-device>
        {shown.deviceId}
      </Box>
      <span>{text.kind(shown)}</span>
      <span>{text.value(shown)}</span>
      <Box component="span" title={translate('app.alarmSignals.since')} sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {elapsedText(now - shown.raisedAt)}
      </Box>
    </Stack>
  );
};

/**
 * The alarm banner on every page (docs/alarms.md, "Signals"): red and pulsing while a high alarm waits for
 * acknowledgement, yellow while only medium ones do, with its sound's state and the operator's buttons.
 */
export const AlarmBanner = () => {
  const translate = useTranslate();
  const { banner, sound, now, silenceUntil, silence } = useAlarmSignals();
  const acknowledge = useAcknowledge();
  const { canAccess: mayAcknowledge } = useCanAccess({ resource: 'alarms', action: 'acknowledge' });
  // On a phone the buttons share the banner's width, each at least a thumb high: acknowledging is one tap.
  const phone = usePhone();
  if (banner === undefined) return null;
  const thumb = phone ? { ...THUMB, flex: '1 1 auto', whiteSpace: 'normal', lineHeight: 1.2 } : {};
  const buttonLook = { color: 'inherit', borderColor: 'currentColor', whiteSpace: 'nowrap', ...thumb } as const;
  return (
    <Box
      data-alarm-banner=""
      data-priority={banner.priority}
      data-alarm-id={banner.shown.id}
      data-sound={sound}
      data-flood={banner.flood}
      // The buttons follow the words rather than the far edge: on a page wider than the window (a wide
      // table) the far edge is out of sight.
      sx={{ ...LOOKS[banner.priority], display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 3, rowGap: 1, px: phone ? 1.5 : 2, py: 1, mb: 1, borderRadius: 1 }}
    >
      <Headline banner={banner} now={now} />
      {sound === 'blocked' && (
        // Any click resumes the sound (useAlarmAudio); this one says so.
        <Button size="small" variant="outlined" startIcon={<VolumeOffIcon />} sx={buttonLook}>
          {translate('app.alarmSignals.blocked')}
        </Button>
      )}
      {silenceUntil !== undefined && (
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          <NotificationsOffIcon fontSize="small" aria-hidden />
          {translate('app.alarmSignals.silenced', { time: elapsedText(silenceUntil - now) })}
        </Box>
      )}
      <Stack direction="row" spacing={1} sx={phone ? { width: '100%' } : undefined}>
        {mayAcknowledge && (
          <Button size="small" variant="contained" color="inherit" sx={{ color: 'rgba(0, 0, 0, 0.87)', whiteSpace: 'nowrap', ...thumb }} disabled={acknowledge.isPending} onClick={() => acknowledge.mutate(banner.shown)}>
            {translate('app.alarmSignals.acknowledge')}
          </Button>
        )}
        {sound === 'playing' && (
          <Button size="small" variant="outlined" sx={buttonLook} onClick={silence}>
            {translate('app.alarmSignals.silence')}
          </Button>
        )}
        <Button size="small" variant="outlined" sx={buttonLook} component={Link} to={standingAlarmsLink()}>
          {translate('app.alarmSignals.viewAll')}
        </Button>
      </Stack>
    </Box>
  );
};
