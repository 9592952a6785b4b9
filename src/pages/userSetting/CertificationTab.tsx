import { Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DateInput, Form, SaveButton, TextInput, useCanAccess, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { CERTIFICATE_ISSUER_MAX, CERTIFICATE_NUMBER_MAX, CERTIFICATE_STATUSES, type CertificateBody } from '../../domain/userSettings';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { certificateErrors } from './formRules';
import { Loaded } from './Loaded';
import { PendingCertificates } from './PendingCertificates';
import { Section } from './Section';

const CERTIFICATION_QUERY_KEY = ['userSetting', 'certification'];
const STATUS_COLOURS = { auditing: 'warning', pass: 'success', rejected: 'error' } as const;

/** A certificate's status (the wire's 0, 1, 2) as a coloured chip. */
const StatusChip = ({ status }: { status: number }) => {
  const translate = useTranslate();
  const name = CERTIFICATE_STATUSES[status] ?? 'auditing';
  return <Chip size="small" color={STATUS_COLOURS[name]} label={translate(`app.userSetting.certification.${name}`)} data-testid="certificate-status" />;
};

/**
 * Certification: the account's operator certificate (number, issuer, expiry) with its status, waiting
 * (auditing) until an administrator above it passes or refuses it, who is then named with the time; a form
 * to submit a new one (it replaces one still waiting), and the ones submitted before. An administrator also
 * sees the certificates waiting for its own decision (./PendingCertificates.tsx).
 */
export const CertificationTab = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const queryClient = useQueryClient();
  const { canAccess: mayApprove } = useCanAccess({ resource: 'certificates', action: 'approve' });
  const answer = useQuery({ queryKey: CERTIFICATION_QUERY_KEY, queryFn: () => dataProvider.certification() });
  const submit = useMutation({ mutationFn: (body: CertificateBody) => dataProvider.submitCertificate(body) });
  const time = (iso: string) => new Date(iso).toLocaleString(locale);
  const fact = (key: string, value: string) => (
    <Typography variant="body2">
      {translate(`app.userSetting.certification.${key}`)}: <strong>{value}</strong>
    </Typography>
  );

  const send = async (values: Partial<CertificateBody>) => {
    await submit.mutateAsync({ number: values.number ?? '', issuer: values.issuer ?? '', expiresOn: values.expiresOn ?? '' }).then(
      async () => {
        notify('app.userSetting.certification.submitted', { type: 'success' });
        await queryClient.invalidateQueries({ queryKey: CERTIFICATION_QUERY_KEY });
      },
      () => undefined,
    );
  };

  return (
    <Loaded query={answer}>
      {({ enterpriseInfo: latest, record }) => (
        <>
          <Section id="settings-certificate" title={translate('app.userSetting.certification.title')}>
            {latest === null ? (
              <Typography variant="body2" color="text.secondary">
                {translate('app.userSetting.certification.none')}
              </Typography>
            ) : (
              <Stack spacing={0.5} data-testid="certificate">
                <div>
                  <StatusChip status={latest.status} />
                </div>
                {fact('number', latest.authenticationNumber)}
                {fact('issuer', latest.enterpriseName)}
                {fact('expiresOn', latest.expiresOn)}
                {fact('submittedAt', time(latest.time))}
                {latest.approver !== null && latest.decidedAt !== null && fact('decidedBy', `${latest.approver}, ${time(latest.decidedAt)}`)}
              </Stack>
            )}
          </Section>
          <Section id="settings-certificate-new" title={translate('app.userSetting.certification.new')}>
            <Form onSubmit={send} validate={(values) => certificateErrors(values, Date.now())} noValidate>
              <Stack sx={{ maxWidth: 560 }}>
                <TextInput source="number" label="app.userSetting.certification.number" isRequired inputProps={{ maxLength: CERTIFICATE_NUMBER_MAX }} fullWidth />
                <TextInput source="issuer" label="app.userSetting.certification.issuer" isRequired inputProps={{ maxLength: CERTIFICATE_ISSUER_MAX }} fullWidth />
                <DateInput source="expiresOn" label="app.userSetting.certification.expiresOn" isRequired fullWidth />
                <div>
                  <SaveButton label="app.userSetting.certification.submit" alwaysEnable />
                </div>
              </Stack>
            </Form>
          </Section>
          {record.length > 1 && (
            <Section id="settings-certificate-history" title={translate('app.userSetting.certification.history')}>
              <Table size="small" aria-labelledby="settings-certificate-history">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('app.userSetting.certification.submittedAt')}</TableCell>
                    <TableCell>{translate('app.userSetting.certification.certificate')}</TableCell>
                    <TableCell>{translate('app.userSetting.certification.status')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {record.map((entry) => (
                    <TableRow key={`${entry.time}-${entry.certificationContent}`}>
                      <TableCell>{time(entry.time)}</TableCell>
                      <TableCell>{entry.certificationContent}</TableCell>
                      <TableCell>
                        <StatusChip status={entry.status} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Section>
      )}
      {mayApprove === true && <PendingCertificates />}
    </>
      )}
    </Loaded>
  );
};
