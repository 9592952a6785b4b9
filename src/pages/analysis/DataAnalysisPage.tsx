import { Alert, Box, Stack } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Loading, Title, useDataProvider, useTranslate } from 'react-admin';
import { COMMAND_STATUSES } from '../../domain/commands';
import { DISTRIBUTION_NAMES, DISTRIBUTIONS, type DistributionBin, type StatsOverview, type StatsReadings } from '../../domain/stats';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { rangeOf, type RangeDays } from './analysisRange';
import { ChartCard, LABELLED_BARS } from './ChartCard';
import { RangePicker } from './RangePicker';

const HEIGHT = 260;
/** The chambers drawn in the utilisation chart (the CSV has them all). */
const TOP_CHAMBERS = 15;

const percent = (share: number | null) => (share === null ? '' : `${Math.round(share * 100)} %`);
const binLabel = ({ from, to }: DistributionBin) => (from === null ? `< ${String(to)}` : to === null ? `≥ ${String(from)}` : `${String(from)}–${String(to)}`);

const Overview = ({ data }: { data: StatsOverview }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`app.analysis.${key}`, options);
  const kindOf = (kind: string) => translate(`resources.alarms.choices.kind.${kind}`);
  const priorityOf = (priority: string) => translate(`resources.alarms.choices.priority.${priority}`);
  const commandType = (type: string) => translate(`resources.device-commands.choices.type.${type}`);
  const chambers = [...data.utilisationByChamber].sort((a, b) => b.share - a.share || a.id.localeCompare(b.id)).slice(0, TOP_CHAMBERS);
  const bookingSlices = (['used', 'expired', 'cancelled', 'open'] as const).map((part, id) => ({ id, value: data.bookings[part], label: t(`bookings.${part}`) }));
  const alarmLabels = data.alarms.map((row) => `${kindOf(row.kind)} · ${priorityOf(row.priority)}`);
  return (
    <>
      <ChartCard title={t('sessionsPerDay')} file="sessions-per-day" table={{ header: ['day', 'sessions'], rows: data.sessionsPerDay.map((row) => [row.day, row.sessions]) }}>
        <BarChart
          height={HEIGHT}
          xAxis={[{ scaleType: 'band', data: data.sessionsPerDay.map((row) => row.day) }]}
          series={[{ data: data.sessionsPerDay.map((row) => row.sessions), label: t('sessions'), ...(data.sessionsPerDay.length <= LABELLED_BARS ? { barLabel: 'value' as const } : {}) }]}
          hideLegend
        />
      </ChartCard>
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
        <Box flex={1}>
          <ChartCard
            title={t('utilisationBySite')}
            file="utilisation-by-site"
            table={{ header: ['site', 'chambers', 'hours', 'share'], rows: data.utilisationBySite.map((row) => [row.site, row.chambers, row.hours, row.share]) }}
          >
            <BarChart
              height={HEIGHT}
              xAxis={[{ scaleType: 'band', data: data.utilisationBySite.map((row) => row.site) }]}
              yAxis={[{ min: 0, max: 1, valueFormatter: percent, width: 48 }]}
              series={[{ data: data.utilisationBySite.map((row) => row.share), label: t('utilisation'), valueFormatter: percent }]}
              hideLegend
            />
          </ChartCard>
        </Box>
        <Box flex={1}>
          <ChartCard
            title={t('utilisationByChamber', { count: TOP_CHAMBERS })}
            file="utilisation-by-chamber"
            table={{ header: ['id', 'name', 'site', 'hours', 'share'], rows: data.utilisationByChamber.map((row) => [row.id, row.name, row.site, row.hours, row.share]) }}
          >
            <BarChart
              height={HEIGHT}
              layout="horizontal"
              yAxis={[{ scaleType: 'band', data: chambers.map((row) => row.name), width: 100 }]}
              xAxis={[{ min: 0, max: 1, valueFormatter: percent }]}
              series={[{ data: chambers.map((row) => row.share), label: t('utilisation'), valueFormatter: percent }]}
              hideLegend
            />
          </ChartCard>
        </Box>
      </Stack>
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
        <Box flex={1}>
          <ChartCard title={t('bookingsTitle', { total: data.bookings.total })} file="bookings" table={{ header: ['part', 'bookings'], rows: Object.entries(data.bookings) }}>
            <PieChart height={HEIGHT} series={[{ data: bookingSlices, innerRadius: 40 }]} />
          </ChartCard>
        </Box>
        <Box flex={1}>
          <ChartCard
            title={t('commands')}
            file="command-outcomes"
            table={{ header: ['type', ...COMMAND_STATUSES], rows: data.commands.map((row) => [row.type, ...COMMAND_STATUSES.map((status) => row[status])]) }}
          >
            <BarChart
              height={HEIGHT}
              xAxis={[{ scaleType: 'band', data: data.commands.map((row) => commandType(row.type)) }]}
              series={COMMAND_STATUSES.map((status) => ({
                data: data.commands.map((row) => row[status]),
                label: translate(`resources.device-commands.choices.status.${status}`),
                stack: 'outcome',
              }))}
            />
          </ChartCard>
        </Box>
      </Stack>
      <ChartCard
        title={t('alarms')}
        file="alarms"
        table={{
          header: ['kind', 'priority', 'raised', 'acknowledged', 'meanAckSeconds', 'maxAckSeconds'],
          rows: data.alarms.map((row) => [row.kind, row.priority, row.raised, row.acknowledged, row.meanAckSeconds, row.maxAckSeconds]),
        }}
      >
        <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
          <BarChart
            height={HEIGHT}
            xAxis={[{ scaleType: 'band', data: alarmLabels }]}
            series={[
              { data: data.alarms.map((row) => row.raised), label: t('raised') },
              { data: data.alarms.map((row) => row.acknowledged), label: t('acknowledged') },
            ]}
          />
          <BarChart
            height={HEIGHT}
            xAxis={[{ scaleType: 'band', data: alarmLabels }]}
            series={[
              { data: data.alarms.map((row) => row.meanAckSeconds), label: t('meanAck') },
              { data: data.alarms.map((row) => row.maxAckSeconds), label: t('maxAck') },
            ]}
          />
        </Stack>
      </ChartCard>
    </>
  );
};

const Distributions = ({ data }: { data: StatsReadings }) => {
  const translate = useTranslate();
  return (
    <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
      {DISTRIBUTION_NAMES.map((name) => (
        <Box flex={1} key={name}>
          <ChartCard
            title={translate(`app.analysis.distribution.${name}`, { reading: DISTRIBUTIONS[name].reading })}
            file={`distribution-${name}`}
            table={{ header: ['from', 'to', 'hours'], rows: data.distributions[name].map((bin) => [bin.from, bin.to, bin.hours]) }}
          >
            <BarChart
              height={HEIGHT}
              xAxis={[{ scaleType: 'band', data: data.distributions[name].map(binLabel) }]}
              series={[{ data: data.distributions[name].map((bin) => bin.hours), label: translate('app.analysis.hours') }]}
              hideLegend
            />
          </ChartCard>
        </Box>
      ))}
    </Stack>
  );
};

/** `/visualization/data-analysis` (docs/analysis.md): the fleet's sessions, utilisation, bookings, readings, commands and alarms over a range. */
export const DataAnalysisPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [days, setDays] = useState<RangeDays>(30);
  const range = rangeOf(days);
  const overview = useQuery({ queryKey: ['statsOverview', range], queryFn: () => dataProvider.statsOverview(range) });
  const readings = useQuery({ queryKey: ['statsReadings', range], queryFn: () => dataProvider.statsReadings(range) });
  const failed = overview.error ?? readings.error;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Title title={translate('app.menu.dataAnalysis')} />
      <RangePicker days={days} onChange={setDays} />
      {failed ? <Alert severity="error">{translate('app.analysis.failed')}</Alert> : null}
      {overview.data ? <Overview data={overview.data} /> : overview.isPending ? <Loading /> : null}
      {readings.data ? <Distributions data={readings.data} /> : null}
    </Stack>
  );
};
