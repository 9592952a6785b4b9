import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslate } from 'react-admin';

const HOUR_LABELS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));

const percent = (share: number | null) => (share === null ? '' : `${Math.round(share * 100)} %`);

/**
 * Utilisation over the day: per local hour, the share of the chambers in session (null for hours not
 * begun, drawn as no bar). Its own chunk (lazyView), so the charts library loads only with the workplace.
 */
export const UtilisationChart = ({ utilisation }: { utilisation: readonly (number | null)[] }) => {
  const translate = useTranslate();
  return (
    <BarChart
      height={200}
      margin={{ left: 0, right: 8, top: 8, bottom: 0 }}
      xAxis={[{ scaleType: 'band', data: HOUR_LABELS, label: translate('app.workplace.hourAxis') }]}
      yAxis={[{ min: 0, max: 1, valueFormatter: percent, width: 48 }]}
      series={[{ data: [...utilisation], label: translate('app.workplace.utilisationSeries'), valueFormatter: percent }]}
      hideLegend
    />
  );
};
