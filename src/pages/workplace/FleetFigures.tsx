import { Card, CardActionArea, CardContent, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ALARM_PRIORITIES } from '../../domain/alarms/rules';
import type { FleetSummary } from '../../domain/fleetSummary';
import { canAccess, type PolicyResource } from '../../domain/policy';
import type { Role } from '../../domain/roles';
import { MARK_LOOK } from '../../resources/devices/ReadingMark';
import { alarmFigureLink, chamberFigureLink, orderFigureLink } from './figureLinks';

const CHAMBER_FIGURES = ['online', 'inSession', 'idle', 'repair', 'offline'] as const;
const ORDER_FIGURES = ['bookings', 'sessions', 'used', 'expired'] as const;

interface FigureProps {
  /** Its test id (`figure-<name>`). */
  name: string;
  label: string;
  value: number;
  /** The list it counts; none when the viewer may not open that list. */
  to: string | undefined;
  /** A standing alarm's priority: a figure above 0 takes its colour and icon, as the readings' marks do. */
  priority?: keyof typeof MARK_LOOK | undefined;
}

/** One figure: its number large, its name below; the whole card opens the list it counts. */
const Figure = ({ name, label, value, to, priority }: FigureProps) => {
  const look = priority !== undefined && value > 0 ? MARK_LOOK[priority] : undefined;
  const content = (
    <CardContent>
      <Typography variant="h4" component="p" data-testid={`figure-${name}-value`} sx={{ color: look?.color, display: 'flex', alignItems: 'center', gap: 0.5 }}>
        {look && <look.Icon fontSize="inherit" />}
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ flex: '1 1 9rem', minWidth: '9rem' }} data-testid={`figure-${name}`}>
      {to === undefined ? (
        content
      ) : (
        <CardActionArea component={Link} to={to} data-testid={`figure-${name}-link`}>
          {content}
        </CardActionArea>
      )}
    </Card>
  );
};

const FigureRow = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <Stack spacing={1}>
    <Typography variant="h6" component="h2">
      {title}
    </Typography>
    <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
      {children}
    </Stack>
  </Stack>
);

/**
 * The chambers now (online, in session, idle, in repair, offline), the standing alarms by priority and
 * today's orders, each a link to its filtered list for a role that may open that list (src/domain/policy.ts).
 */
export const FleetFigures = ({ summary, role }: { summary: FleetSummary; role: Role }) => {
  const translate = useTranslate();
  const linkFor = (resource: PolicyResource, to: string) => (canAccess(role, { resource, action: 'list' }) ? to : undefined);
  return (
    <>
      <FigureRow title={translate('app.workplace.chambersNow', { total: summary.chambers.total })}>
        {CHAMBER_FIGURES.map((figure) => (
          <Figure key={figure} name={figure} label={translate(`app.workplace.figures.${figure}`)} value={summary.chambers[figure]} to={linkFor('devices', chamberFigureLink(figure))} />
        ))}
      </FigureRow>
      <FigureRow title={translate('app.workplace.alarmsNow')}>
        {ALARM_PRIORITIES.map((priority) => (
          <Figure
            key={priority}
            name={`alarms-${priority}`}
            label={translate(`app.workplace.alarmFigures.${priority}`)}
            value={summary.alarms[priority]}
            to={linkFor('alarms', alarmFigureLink(priority))}
            priority={priority}
          />
        ))}
      </FigureRow>
      <FigureRow title={translate('app.workplace.today')}>
        {ORDER_FIGURES.map((figure) => (
          <Figure key={figure} name={figure} label={translate(`app.workplace.figures.${figure}`)} value={summary.orders[figure]} to={linkFor('orders', orderFigureLink(figure, summary))} />
        ))}
      </FigureRow>
    </>
  );
};
