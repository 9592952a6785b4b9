import { Typography } from '@mui/material';
import { alpha, keyframes, styled } from '@mui/material/styles';
import { memo, useCallback, useSyncExternalStore, type KeyboardEvent, type ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { Unit } from '../../resources/types';
import type { ReadingColumn } from '../OxygenMonitor/columns';
import { formatDateTime } from '../OxygenMonitor/formats';
import { ReadingValue } from '../OxygenMonitor/ReadingValue';
import { isUnacked } from '../../domain/alarms/open';
import { AlarmLine } from './AlarmLine';
import { ChamberStatus, chamberLook, LOOK_COLOR } from './ChamberStatus';
import { inSession } from './fleetLayout';
import type { FleetStore } from './fleetStore';
import { Sparkline } from './Sparkline';

/** A tile's height, px: fixed, so the grid's rows are known without measuring them. */
export const TILE_HEIGHT = 184;

const TileRoot = styled('div')(({ theme }) => ({
  height: TILE_HEIGHT,
  boxSizing: 'border-box',
  padding: theme.spacing(1, 1.5),
  borderRadius: theme.shape.borderRadius,
  border: `1px solid ${theme.palette.divider}`,
  borderLeftWidth: 6,
  background: theme.palette.background.paper,
  cursor: 'pointer',
  display: 'flex',
  flexDirection: 'column',
  gap: 2,
  overflow: 'hidden',
  fontVariantNumeric: 'tabular-nums',
  '&:hover, &:focus-visible': { boxShadow: theme.shadows[3], outline: 'none' },
  // A chamber in alarm: its whole border in the priority's colour, pulsing while a high one waits for acknowledgement.
  '&[data-alarm="high"]': { borderColor: theme.palette.error.main },
  '&[data-alarm="medium"]': { borderColor: theme.palette.warning.main },
  '&[data-alarm="high"][data-unacked]': {
    animation: `${keyframes`
      0%, 100% { box-shadow: 0 0 0 0 ${alpha(theme.palette.error.main, 0)}; }
      50% { box-shadow: 0 0 0 4px ${alpha(theme.palette.error.main, 0.55)}; }
    `} 1.2s ease-in-out infinite`,
    '@media (prefers-reduced-motion: reduce)': { animation: 'none', boxShadow: `0 0 0 3px ${alpha(theme.palette.error.main, 0.55)}` },
  },
}));

// Styled once rather than through sx, which is worked out again at every render of every tile.
const Line = styled('div')({ display: 'flex', alignItems: 'center', gap: 12, minHeight: 20, whiteSpace: 'nowrap', overflow: 'hidden' });
const BigLine = styled(Line)({ fontSize: '1.35rem', fontWeight: 600, gap: 24 });
const TraceLine = styled(Line)(({ theme }) => ({ color: theme.palette.primary.main }));
const SmallLine = styled(Line)(({ theme }) => ({ ...theme.typography.body2 }));
const Remaining = styled('div')(({ theme }) => ({ display: 'flex', alignItems: 'center', gap: 8, color: theme.palette.text.primary, ...theme.typography.body2 }));
const RemainingBar = styled('div')(({ theme }) => ({ width: 56, height: 6, borderRadius: 3, background: theme.palette.action.hover, overflow: 'hidden' }));
const RemainingFill = styled('div')(({ theme }) => ({ height: '100%', background: theme.palette.primary.main }));
const LabelledRoot = styled('span')({ display: 'inline-flex', gap: 4, alignItems: 'center' });
const ShortName = styled('span')(({ theme }) => ({ ...theme.typography.caption, color: theme.palette.text.secondary }));

/** A reading with its short name before it. */
const Labelled = ({ label, children }: { label: string; children: ReactNode }) => (
  <LabelledRoot>
    <ShortName>{label}</ShortName>
    {children}
  </LabelledRoot>
);

interface MonitorTileProps {
  id: string;
  store: FleetStore;
  onOpen: (id: string) => void;
}

/**
 * One chamber, as the designers' sketch lays it out (docs/monitoring.md). It subscribes to its own device in
 * the store, so a live patch renders this tile again and nothing else.
 */
export const MonitorTile = memo(function MonitorTile({ id, store, onOpen }: MonitorTileProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const subscribe = useCallback((listener: () => void) => store.subscribeDevice(id, listener), [store, id]);
  const device = useSyncExternalStore(subscribe, () => store.device(id));
  const alarms = useSyncExternalStore(subscribe, () => store.alarms(id));
  if (device === undefined) return null;
  const reading = device.Reading ?? undefined;
  const session = inSession(device);
  const seen = device.LastSeen ? new Date(device.LastSeen) : undefined;
  const remaining = reading?.RRD;
  const open = () => onOpen(id);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open();
    }
  };
  const value = (field: ReadingColumn, digits: number, unit?: Unit) => (
    <span data-field={field}>
      <ReadingValue reading={reading} field={field} digits={digits} unit={unit} withUnit inSession={session} />
    </span>
  );

  return (
    <TileRoot
      role="link"
      tabIndex={0}
      onClick={open}
      onKeyDown={onKeyDown}
      aria-label={translate('app.tiles.open', { device: `${device.Id} ${device.name}` })}
      data-device={device.Id}
      data-reading-time={reading?.Time}
      data-alarm={alarms[0]?.priority}
      data-unacked={alarms[0] !== undefined && isUnacked(alarms[0]) ? '' : undefined}
      sx={{ borderLeftColor: LOOK_COLOR[chamberLook(device)] }}
    >
      <Line style={{ justifyContent: 'space-between' }}>
        <Typography noWrap fontWeight={600} variant="body2">
          {device.Id} · {device.name}
        </Typography>
        <ChamberStatus device={device} />
      </Line>
      {/* What needs attention: the chamber's most urgent standing alarm, an offline chamber's last message. */}
      <Line>
        {alarms[0] && <AlarmLine alarm={alarms[0]} more={alarms.length - 1} />}
        <Typography variant="caption" color="text.secondary" noWrap>
          {!device.Online && (seen ? translate('app.monitor.lastSeen', { time: formatDateTime(locale, seen) }) : translate('app.monitor.never'))}
        </Typography>
      </Line>
      <BigLine>
        {reading === undefined ? (
          <Typography color="text.disabled">{translate('app.monitor.noReading')}</Typography>
        ) : (
          <>
            {value('RCP', 2, 'ata')}
            <Labelled label={translate('app.tiles.oxygen')}>{value('RCPi02', 1, 'percent')}</Labelled>
          </>
        )}
      </BigLine>
      <TraceLine>
        <Sparkline trace={store.pressure(id)} label={translate('app.tiles.sparkline')} />
        {session && remaining !== undefined && (
          <Remaining data-field="RRD">
            <span>{translate('app.tiles.remaining', { minutes: remaining })}</span>
            {reading?.ST ? (
              <RemainingBar aria-hidden>
                <RemainingFill style={{ width: `${Math.min(100, (remaining / reading.ST) * 100)}%` }} />
              </RemainingBar>
            ) : null}
          </Remaining>
        )}
      </TraceLine>
      <Line>
        {session && (
          <>
            <Labelled label={translate('app.monitor.columns.HmSP02')}>{value('HmSP02', 0, 'percent')}</Labelled>
            <Labelled label={translate('app.monitor.columns.HmHR')}>{value('HmHR', 0)}</Labelled>
            <Labelled label={translate('app.monitor.columns.HmBP')}>{value('HmBP', 0)}</Labelled>
          </>
        )}
      </Line>
      <SmallLine>
        {value('RCT', 1, 'celsius')}
        {value('RCRH', 0, 'relativeHumidity')}
        {value('RAP', 1, 'kPa')}
        {device.OrderNum && (
          <Typography variant="caption" color="text.secondary" noWrap>
            {translate('app.tiles.order', { order: device.OrderNum })}
          </Typography>
        )}
      </SmallLine>
    </TileRoot>
  );
});
