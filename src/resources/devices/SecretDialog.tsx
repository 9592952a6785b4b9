import { useState, type ReactNode } from 'react';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import { connectionExample, deviceCredentialsSchema, type DeviceCredentials } from '../../domain/mqtt/connection';

const mono = { fontFamily: 'monospace', wordBreak: 'break-all' } as const;

/** Copies `text`; its tooltip says whether the browser let it (a page over plain HTTP may not). */
const CopyButton = ({ text, name }: { text: string; name: string }) => {
  const translate = useTranslate();
  const [said, setSaid] = useState<string>();
  const copy = () => {
    const done = (key: string) => () => setSaid(translate(key));
    void (navigator.clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'))).then(done('crud.credentials.copied'), done('crud.credentials.copyFailed'));
  };
  const label = `${translate('crud.credentials.copy')}: ${name}`;
  return (
    <Tooltip title={said ?? label} onClose={() => setSaid(undefined)}>
      <IconButton aria-label={label} size="small" onClick={copy}>
        <ContentCopyIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
};

const Line = ({ label, children, copy }: { label: string; children: ReactNode; copy?: string }) => (
  <Box sx={{ display: 'grid', gridTemplateColumns: '12em 1fr auto', alignItems: 'center', gap: 1 }}>
    <Typography color="text.secondary">{label}</Typography>
    <Box sx={mono}>{children}</Box>
    {copy === undefined ? <span /> : <CopyButton text={copy} name={label} />}
  </Box>
);

/** Topics side by side, each kept whole on its line. */
const Topics = ({ topics }: { topics: readonly string[] }) => (
  <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
    {topics.map((topic) => (
      <Box component="span" key={topic} sx={{ whiteSpace: 'nowrap' }}>
        {topic}
      </Box>
    ))}
  </Box>
);

/**
 * A device's new secret, shown once (after registration or rotation), with what the chamber needs to
 * connect: the broker's host and port as the server answered them, the username (its Id), the topics it
 * publishes on and subscribes to, and a mosquitto_pub line to try them (src/domain/mqtt/connection.ts).
 */
export const SecretDialog = ({ credentials, onClose }: { credentials: DeviceCredentials; onClose: () => void }) => {
  const translate = useTranslate();
  const { Id, secret, broker } = credentials;
  const example = connectionExample(credentials);
  const t = (key: string) => translate(`crud.credentials.${key}`);
  return (
    <Dialog open maxWidth="md" fullWidth aria-labelledby="device-secret-title">
      <DialogTitle id="device-secret-title">{translate('crud.credentials.title', { id: Id })}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5}>
          <Alert severity="warning">{t('once')}</Alert>
          <Line label={t('secret')} copy={secret}>
            <strong data-testid="device-secret">{secret}</strong>
          </Line>
          <Line label={t('host')}>
            <span data-testid="broker-host">{broker.host}</span>
          </Line>
          <Line label={t('port')}>
            <span data-testid="broker-port">{broker.port}</span>
          </Line>
          <Line label={t('username')}>{Id}</Line>
          <Line label={t('publishes')}>
            <Topics topics={example.publishes} />
          </Line>
          <Line label={t('subscribes')}>
            <Topics topics={example.subscribes} />
          </Line>
          <Typography color="text.secondary">{t('example')}</Typography>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
            <Box component="pre" sx={{ ...mono, whiteSpace: 'pre-wrap', m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, flex: 1 }} data-testid="mosquitto-pub">
              {example.mosquittoPub}
            </Box>
            <CopyButton text={example.mosquittoPub} name="mosquitto_pub" />
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** After a device's registration (ResourceUi.created): its secret, then its page. */
export const DeviceRegistered = ({ record, done }: { record: RaRecord; done: () => void }) => (
  <SecretDialog credentials={deviceCredentialsSchema.parse(record)} onClose={done} />
);
