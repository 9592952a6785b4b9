import { Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { levelToRole } from '../../domain/roles';
import type { CertificateDecision } from '../../domain/userSettings';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { Loaded } from './Loaded';
import { Section } from './Section';

const QUERY_KEY = ['userSetting', 'pendingCertificates'];

/**
 * The certificates waiting for the signed-in administrator's decision: those of the accounts below it, oldest
 * first, each passed or refused here; the server names the approver and the time on the certificate.
 */
export const PendingCertificates = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const queryClient = useQueryClient();
  const pending = useQuery({ queryKey: QUERY_KEY, queryFn: () => dataProvider.pendingCertificates() });
  const decide = useMutation({
    mutationFn: (decision: CertificateDecision) => dataProvider.decideCertificate(decision),
    onSuccess: async (_, { pass }) => {
      notify(pass ? 'app.userSetting.pending.passed' : 'app.userSetting.pending.rejected', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
  });
  const column = (key: string) => <TableCell>{translate(`app.userSetting.${key}`)}</TableCell>;

  return (
    <Section id="settings-certificates-pending" title={translate('app.userSetting.pending.title')}>
      <Loaded query={pending}>
        {(waiting) =>
          waiting.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {translate('app.userSetting.pending.none')}
            </Typography>
          ) : (
            <Table size="small" aria-labelledby="settings-certificates-pending">
              <TableHead>
                <TableRow>
                  {column('pending.account')}
                  {column('certification.number')}
                  {column('certification.issuer')}
                  {column('certification.expiresOn')}
                  {column('certification.submittedAt')}
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {waiting.map((certificate) => (
                  <TableRow key={certificate.account} data-testid="pending-certificate">
                    <TableCell>
                      {certificate.account} ({translate(`app.roles.${levelToRole(certificate.level)}`)})
                    </TableCell>
                    <TableCell>{certificate.number}</TableCell>
                    <TableCell>{certificate.issuer}</TableCell>
                    <TableCell>{certificate.expiresOn}</TableCell>
                    <TableCell>{new Date(certificate.submittedAt).toLocaleString(locale)}</TableCell>
                    <TableCell align="right">
                      <Stack direction="row" spacing={1} justifyContent="flex-end">
                        <Button size="small" variant="contained" disabled={decide.isPending} onClick={() => decide.mutate({ account: certificate.account, pass: true })}>
                          {translate('app.userSetting.pending.pass')}
                        </Button>
                        <Button size="small" color="error" disabled={decide.isPending} onClick={() => decide.mutate({ account: certificate.account, pass: false })}>
                          {translate('app.userSetting.pending.reject')}
                        </Button>
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )
        }
      </Loaded>
    </Section>
  );
};
