import { Chip, Tooltip } from '@mui/material';
import CircleIcon from '@mui/icons-material/Circle';
import { useTranslate } from 'react-admin';
import { useLiveStatus } from '../providers/live';

const COLORS = { live: '#4caf50', connecting: '#ffb300', reconnecting: '#ffb300', polling: '#9e9e9e' } as const;

/** The app bar's word on live data: live, connecting, reconnecting or polling, with a tooltip saying what it means. */
export const LiveIndicator = () => {
  const { status, pollMs } = useLiveStatus();
  const translate = useTranslate();
  if (status === 'off') return null;
  const hint = translate(`app.live.${status}Hint`, { seconds: Math.round(pollMs / 1000) });
  return (
    <Tooltip title={hint}>
      <Chip
        role="status"
        aria-label={`${translate(`app.live.${status}`)}: ${hint}`}
        size="small"
        variant="outlined"
        icon={<CircleIcon sx={{ fontSize: 10 }} />}
        label={translate(`app.live.${status}`)}
        sx={{ color: 'inherit', borderColor: 'currentColor', mx: 1, '& .MuiChip-icon': { color: COLORS[status] } }}
      />
    </Tooltip>
  );
};
