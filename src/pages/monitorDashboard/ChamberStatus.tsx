import { Box } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import type { DeviceState } from '../../domain/devices';
import { inSession, type FleetDevice } from './fleetLayout';

/** What a chamber's colour says: danger, unreachable, or its state. */
type ChamberLook = 'danger' | 'offline' | DeviceState;

export const chamberLook = (device: FleetDevice): ChamberLook => {
  if (device.Emergency || (inSession(device) && !device.Online)) return 'danger';
  if (!device.Online) return 'offline';
  return device.State as DeviceState;
};

/** Each look's colour in the theme: working green, idle blue, repair amber, offline grey, danger red. */
export const LOOK_COLOR: Record<ChamberLook, string> = {
  danger: 'error.main',
  offline: 'grey.500',
  Work: 'success.main',
  Stop: 'info.main',
  Repair: 'warning.main',
};

const pulse = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0.25; }
`;

/** The label of a chamber's look, in the reader's language. */
const useLookLabel = () => {
  const translate = useTranslate();
  return (device: FleetDevice, look: ChamberLook): string => {
    if (look === 'danger') return translate(device.Emergency ? 'app.monitor.erdActive' : 'app.monitor.offlineInSession');
    if (look === 'offline') return translate('app.monitor.offline');
    return translate(`resources.devices.choices.State.${look}`);
  };
};

/** A dot in the look's colour (pulsing in danger) and its label: colour is never the only sign. */
export const ChamberStatus = ({ device }: { device: FleetDevice }) => {
  const look = chamberLook(device);
  const label = useLookLabel()(device, look);
  return (
    <Box component="span" data-look={look} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap', color: LOOK_COLOR[look], fontWeight: 600 }}>
      <Box
        component="span"
        aria-hidden
        sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: LOOK_COLOR[look], animation: look === 'danger' ? `${pulse} 1s ease-in-out infinite` : undefined }}
      />
      {label}
    </Box>
  );
};
