import { Card, CardActionArea, CardContent, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { FleetSummary } from '../../domain/fleetSummary';
import { chamberFigureLink, orderFigureLink } from './figureLinks';

const CHAMBER_FIGURES = ['online', 'inSession', 'idle', 'repair', 'offline'] as const;
const ORDER_FIGURES = ['bookings', 'sessions', 'used', 'expired'] as const;

interface FigureProps {
  name: string;
  value: number;
  to: string;
}

/** One figure: its number large, its name below; the whole card opens the list it counts. */
const Figure = ({ name, value, to }: FigureProps) => {
  const translate = useTranslate();
  return (
    <Card variant="outlined" sx={{ flex: '1 1 9rem', minWidth: '9rem' }}>
      <CardActionArea component={Link} to={to} data-testid={`figure-${name}`}>
        <CardContent>
          <Typography variant="h4" component="p" data-testid={`figure-${name}-value`}>
            {value}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate(`app.workplace.figures.${name}`)}
          </Typography>
        </CardContent>
      </CardActionArea>
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

/** The chambers now (online, in session, idle, in repair, offline) and today's orders, each a link to its filtered list. */
export const FleetFigures = ({ summary }: { summary: FleetSummary }) => {
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
          <Figure key={figure} name={figure} value={summary.orders[figure]} to={orderFigureLink(figure, summary)} />
        ))}
      </FigureRow>
    </>
  );
};
