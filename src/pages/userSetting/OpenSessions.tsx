import { Button, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { OpenSession } from '../../domain/userSettings';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { Loaded } from './Loaded';

const QUERY_KEY = ['userSetting', 'sessions'];

/**
 * The account's open sessions (sign-ins), the latest used first: when and where each started (address and
 * browser) and when it was last used; the current one is marked and ends by signing out. Revoking another
 * ends it at once, its live streams too.
 */
export const OpenSessions = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: QUERY_KEY, queryFn: () => dataProvider.openSessions() });
  const revoke = useMutation({
    mutationFn: (session: OpenSession) => dataProvider.revokeSession({ session: session.session }),
    onSuccess: async () => {
      notify('app.userSetting.sessions.revoked', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
  });
  const time = (iso: string) => new Date(iso).toLocaleString(locale);
  const column = (key: string) => <TableCell>{translate(`app.userSetting.sessions.${key}`)}</TableCell>;

  return (
    <Loaded query={sessions}>
      {(open) => (
        <Table size="small" aria-labelledby="settings-sessions">
          <TableHead>
            <TableRow>
              {column('startedAt')}
              {column('address')}
              {column('agent')}
              {column('lastUsedAt')}
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {open.map((session) => (
              <TableRow key={session.session} data-testid="open-session">
                <TableCell>{time(session.startedAt)}</TableCell>
                <TableCell>{session.address || translate('app.userSetting.sessions.unknown')}</TableCell>
                <TableCell>
                  <Typography variant="body2" sx={{ maxWidth: 360, overflowWrap: 'anywhere' }}>
                    {session.agent || translate('app.userSetting.sessions.unknown')}
                  </Typography>
                </TableCell>
                <TableCell>{time(session.lastUsedAt)}</TableCell>
                <TableCell align="right">
                  {session.current ? (
                    <Chip size="small" color="primary" label={translate('app.userSetting.sessions.current')} />
                  ) : (
                    <Button size="small" color="error" disabled={revoke.isPending} onClick={() => revoke.mutate(session)}>
                      {translate('app.userSetting.sessions.revoke')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Loaded>
  );
};
