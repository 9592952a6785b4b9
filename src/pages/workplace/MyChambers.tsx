import { Card, CardActionArea, Chip, Stack, Typography } from '@mui/material';
import { useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { WireRecord } from '../../resources/model';
import { devicesConfig } from '../../resources/devices/config';

/** How many of the account's chambers the workplace shows; the device manager lists them all. */
const SHOWN = 24;

const Chamber = ({ device }: { device: WireRecord }) => {
  const translate = useTranslate();
  const id = String(device.Id);
  const online = device.Online === true;
  return (
    <Card variant="outlined" sx={{ flex: '0 1 14rem' }}>
      <CardActionArea component={Link} to={`/devices/${encodeURIComponent(id)}/show`} sx={{ p: 1 }} data-testid={`chamber-${id}`}>
        <Typography variant="subtitle2" noWrap>
          {id} · {String(device.name ?? '')}
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ mt: 0.5 }}>
          <Chip size="small" label={translate(`resources.devices.choices.State.${String(device.State)}`)} />
          <Chip
            size="small"
            variant="outlined"
            color={online ? 'success' : 'default'}
            label={translate(online ? 'app.workplace.figures.online' : 'app.workplace.figures.offline')}
          />
        </Stack>
      </CardActionArea>
    </Card>
  );
};

/** "My chambers": the account's own chambers (its scope), compact, each opening its page; live like every list. */
export const MyChambers = () => {
  const translate = useTranslate();
  const { data, total, isPending, error } = useGetList<WireRecord & { id: string }>(devicesConfig.name, {
    pagination: { page: 1, perPage: SHOWN },
    sort: devicesConfig.defaultSort,
  });
  return (
    <Stack spacing={1}>
      <Typography variant="h6" component="h2">
        {translate('app.workplace.myChambers')}
        {total !== undefined && total > SHOWN ? (
          <Typography component={Link} to="/list/device-manager" variant="body2" sx={{ ml: 2 }}>
            {translate('app.workplace.allChambers', { total })}
          </Typography>
        ) : null}
      </Typography>
      {isPending ? null : error ? (
        <Typography color="error">{translate('app.workplace.failed')}</Typography>
      ) : data.length === 0 ? (
        <Typography color="text.secondary">{translate('app.workplace.noChambers')}</Typography>
      ) : (
        <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
          {data.map((device) => (
            <Chamber key={String(device.Id)} device={device} />
          ))}
        </Stack>
      )}
    </Stack>
  );
};
