import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { RANGE_DAYS, type RangeDays } from './analysisRange';

/** The range both analysis pages count over: the last 7, 30, 90 or 365 days. */
export const RangePicker = ({ days, onChange }: { days: RangeDays; onChange: (days: RangeDays) => void }) => {
  const translate = useTranslate();
  return (
    <TextField select size="small" label={translate('app.analysis.range')} value={days} onChange={(event) => onChange(Number(event.target.value) as RangeDays)} sx={{ minWidth: 180 }}>
      {RANGE_DAYS.map((each) => (
        <MenuItem key={each} value={each}>
          {translate('app.analysis.lastDays', { days: each })}
        </MenuItem>
      ))}
    </TextField>
  );
};
