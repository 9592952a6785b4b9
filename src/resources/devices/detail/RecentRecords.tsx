import { LinearProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Link, useCreatePath, useGetList, useLocaleState, useTranslate, type RaRecord } from 'react-admin';
import { fieldOf } from '../../model';
import type { ResourceConfig } from '../../types';

interface RecentRecordsProps {
  config: ResourceConfig;
  filter: Record<string, unknown>;
  /** The fields shown, in order; the first links to the record's page. */
  columns: readonly string[];
  perPage: number;
  /** Said when there are none (an app.detail key). */
  empty: string;
}

/**
 * A resource's newest records about one device (its orders, its audit trail), newest first, labelled
 * and worded as the resource's own list words them; the first column opens the record.
 */
export const RecentRecords = ({ config, filter, columns, perPage, empty }: RecentRecordsProps) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const createPath = useCreatePath();
  const { data, isPending } = useGetList<RaRecord>(config.name, { filter, sort: config.defaultSort, pagination: { page: 1, perPage } });
  const shown = (source: string, value: unknown): string => {
    if (value === null || value === undefined || value === '') return '—';
    const field = fieldOf(config, source);
    if (field?.kind === 'datetime') return new Date(Number(value)).toLocaleString(locale);
    if (field?.kind === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
    if (field?.kind === 'enum') return translate(`resources.${config.name}.choices.${source}.${String(value)}`);
    return String(value);
  };
  if (isPending) return <LinearProgress />;
  if (!data?.length) return <Typography color="text.secondary">{translate(`app.detail.${empty}`)}</Typography>;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          {columns.map((source) => (
            <TableCell key={source} sx={{ whiteSpace: 'nowrap' }}>
              {translate(`resources.${config.name}.fields.${source}`)}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {data.map((record) => (
          <TableRow key={record.id}>
            {columns.map((source, index) => (
              <TableCell key={source} sx={{ whiteSpace: 'nowrap' }}>
                {index === 0 ? <Link to={createPath({ resource: config.name, id: record.id, type: 'show' })}>{shown(source, record[source])}</Link> : shown(source, record[source])}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
