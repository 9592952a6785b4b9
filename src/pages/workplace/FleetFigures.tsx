import { Card, CardActionArea, CardContent, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { FleetSummary } from '../../domain/fleetSummary';
import type { Role } from '../../domain/roles';
import { chamberFigureLink, orderFigureLink } from './figureLinks';

const CHAMBER_FIGURES = ['online', 'inSession', 'idle', 'repair', 'offline'] as const;
const ORDER_FIGURES = ['bookings', 'sessions', 'used', 'expired'] as const;

interface FigureProps {
  name: string;
  value: number;
  /** The list it counts; none when the viewer's list would not show those records. */
  to: string | undefined;
}

/** One figure: its number large, its name below; the whole card opens the list it counts. */
const Figure = ({ name, value, to }: FigureProps) => {
  const translate = useTranslate();
  const content = (
    <CardContent>
      <Typography variant="h4" component="p" data-testid={`figure-${name}-value`}>
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate(`app.workplace.figures.${name}`)}
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
 * The chambers now (online, in session, idle, in repair, offline) and today's orders, each a link to its
 * filtered list. The session starts are the server's own audit entries, which only the super
 * administrator's audit log lists (docs/audit.md): for anyone else that figure opens nothing rather
 * than an empty list.
 */
export const FleetFigures = ({ summary, role }: { summary: FleetSummary; role: Role }) => {
  const translate = useTranslate();
  return (
    <>
      <FigureRow title={translate('app.workplace.chambersNow', { total: summary.chambers.total })}>
        {CHAMBER_FIGURES.map((figure) => (
          <Figure key={figure} name={figure} value={summary.chambers[figure]} to={chamberFigureLink(figure)} />
        ))}
      </FigureRow>
      <FigureRow title={translate('app.workplace.today')}>
        {ORDER_FIGURES.map((figure) => (
          <Figure key={figure} name={figure} value={summary.orders[figure]} to={figure === 'sessions' && role !== 'admin' ? undefined : orderFigureLink(figure, summary)} />
        ))}
      </FigureRow>
    </>
  );
};
