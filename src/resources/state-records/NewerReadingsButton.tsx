import { Button, Tooltip } from '@mui/material';
import { useListContext, useLocaleState, useTranslate } from 'react-admin';
import { useNewerReadings } from './useNewerReadings';

/**
 * The readings log keeps its page still while readings arrive (a fleet brings thousands a second, no
 * one reads rows that move): this button says how many newer ones match the filter and shows them, the
 * first page again with the list's sort and filter. `data-reading-time` is the newest counted reading's
 * Time, for bench:monitor's reading-to-paint.
 */
export const NewerReadingsButton = () => {
  const { filterValues, data, page, setPage, refetch } = useListContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { count, newest } = useNewerReadings(filterValues, data);
  if (count === 0) return null;
  const show = () => {
    if (page === 1) void refetch();
    else setPage(1);
  };
  return (
    <Tooltip title={translate('app.readingsLog.newerHint')} describeChild>
      <Button size="small" variant="outlined" onClick={show} data-newer-readings={count} data-reading-time={newest}>
        {translate('app.readingsLog.newer', { smart_count: count, count: count.toLocaleString(locale) })}
      </Button>
    </Tooltip>
  );
};
