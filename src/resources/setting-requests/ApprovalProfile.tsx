import { Alert, Box, Chip, Paper, Stack, Step, StepLabel, Stepper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import PrintIcon from '@mui/icons-material/Print';
import { useQuery } from '@tanstack/react-query';
import { Button, Loading, useDataProvider, useGetIdentity, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { canAccess } from '../../domain/policy';
import { PRINT_STYLES } from '../PrintStyles';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { useTime } from '../orders/report/useTime';
import type { Settings } from '../devices/requests';
import { AmendDialog } from './AmendDialog';
import { SignDialog } from './SignDialog';
import type { SettingRequestRecord } from './requests';
import type { Role } from '../../domain/roles';
import { PrintSection } from '../PrintSection';

const LABELS = 'resources.setting-requests';
const READINGS = 'resources.state-records';


/** Which of the three steps is current: approval while waiting, finish once decided (done once the command is final or none is due). */
const activeStep = (request: SettingRequestRecord): number => {
  if (request.status === 'waiting') return 1;
  if (request.status === 'approved' && request.commandStatus === 'sent') return 2;
  return 3;
};

/**
 * One settings request as the basic profile shows and prints it (docs/approval.md, "In the console"): the
 * device, the steps with who and when, the settings before and requested, the command's outcome, the
 * signature (signer, date and time, meaning, the settings hash it binds) and the operation log from the
 * audit trail; the approver's approve and reject (signed), the requester's amend and cancel while it waits.
 */
export const ApprovalProfile = ({ id }: { id?: number }) => {
  const translate = useTranslate();
  const time = useTime();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { identity } = useGetIdentity();
  const profile = useQuery({ queryKey: ['profileBasic', id], queryFn: () => dataProvider.profileBasic(id) });
  const log = useQuery({ queryKey: ['operationLog', id, profile.data?.request.status, profile.data?.request.commandStatus], queryFn: () => dataProvider.operationLog(id), enabled: profile.isSuccess });
  if (profile.isPending) return <Loading />;
  if (profile.isError || profile.data === null) return <Alert severity="info">{translate('app.approval.none')}</Alert>;
  const request = profile.data.request;
  const role = identity?.role as Role | undefined;
  const mine = identity?.id === request.requester;
  const waiting = request.status === 'waiting';
  const shown = (field: keyof Settings, value: unknown) =>
    value === null || value === undefined ? '—' : field === 'SP' || field === 'ST' ? String(value) : translate(`${READINGS}.choices.${field}.${String(value)}`);
  const refetch = () => void profile.refetch();
  const signature = request.signature;
  return (
    <Stack spacing={2} sx={{ my: 2 }} data-approval-profile={request.id}>
      {PRINT_STYLES}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1">
          {translate('app.approval.title', { id: request.id })}
        </Typography>
        <Chip label={translate(`${LABELS}.choices.status.${request.status}`)} data-status={request.status} />
        <Box sx={{ flex: 1 }} />
        <Stack direction="row" spacing={1} data-print="hide">
          {waiting && !mine && canAccess(role, { resource: 'setting-requests', action: 'approve' }) && (
            <>
              <SignDialog request={request} decision="approve" onDone={refetch} />
              <SignDialog request={request} decision="reject" onDone={refetch} />
            </>
          )}
          {waiting && mine && canAccess(role, { resource: 'setting-requests', action: 'request' }) && <AmendDialog request={request} onDone={refetch} />}
          {waiting && mine && canAccess(role, { resource: 'setting-requests', action: 'cancel' }) && <SignDialog request={request} decision="cancel" onDone={refetch} />}
          <Button label="app.approval.print" onClick={() => window.print()}>
            <PrintIcon />
          </Button>
        </Stack>
      </Stack>
      <PrintSection heading="subtitle1" title={translate('app.approval.device')}>
        <Link to={`/devices/${encodeURIComponent(request.deviceId)}/show`}>{request.deviceId}</Link>
      </PrintSection>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stepper activeStep={activeStep(request)} alternativeLabel>
          <Step>
            <StepLabel optional={translate('app.approval.stepBy', { who: request.requester, at: time(request.requestedAt) })}>{translate('app.approval.steps.commit')}</StepLabel>
          </Step>
          <Step>
            <StepLabel
              optional={
                request.decidedAt === null
                  ? translate(waiting ? 'app.approval.waiting' : `${LABELS}.choices.status.${request.status}`)
                  : translate('app.approval.stepBy', { who: request.decidedBy ?? '', at: time(request.decidedAt) })
              }
            >
              {translate('app.approval.steps.approval')}
            </StepLabel>
          </Step>
          <Step>
            <StepLabel optional={translate(`${LABELS}.choices.status.${request.status}`)}>{translate('app.approval.steps.finish')}</StepLabel>
          </Step>
        </Stepper>
      </Paper>
      <PrintSection heading="subtitle1" title={translate('app.approval.settings')}>
        <Table size="small" data-settings>
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.approval.setting')}</TableCell>
              <TableCell align="right">{translate('app.approval.before')}</TableCell>
              <TableCell align="right">{translate('app.approval.requested')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(Object.keys(request.settings) as (keyof Settings)[]).map((field) => (
              <TableRow key={field} data-setting={field}>
                <TableCell>{translate(`${READINGS}.fields.${field}`)}</TableCell>
                <TableCell align="right">{shown(field, request.before[field])}</TableCell>
                <TableCell align="right">{shown(field, request.settings[field])}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Typography variant="caption" component="p" sx={{ mt: 1, fontFamily: 'monospace', wordBreak: 'break-all' }} data-settings-hash={request.settingsHash}>
          {translate('app.approval.settingsHash')}: {request.settingsHash}
        </Typography>
      </PrintSection>
      <PrintSection heading="subtitle1" title={translate('app.approval.command')}>
        <Typography variant="body2" data-command-status={request.commandStatus ?? ''}>
          {request.commandStatus === null
            ? translate('app.approval.noCommand')
            : `${translate(`${LABELS}.choices.commandStatus.${request.commandStatus}`)}${request.commandError === null ? '' : `: ${request.commandError}`}`}
        </Typography>
      </PrintSection>
      <PrintSection heading="subtitle1" title={translate('app.approval.signature')}>
        {signature === null ? (
          <Typography variant="body2">{translate('app.approval.unsigned')}</Typography>
        ) : (
          <Stack spacing={1} data-signature={signature.meaning}>
            <Stack direction="row" spacing={4} sx={{ flexWrap: 'wrap' }}>
              <Typography variant="body2">
                {translate('app.approval.signer')}: <strong>{signature.signer}</strong>
              </Typography>
              <Typography variant="body2">
                {translate('app.approval.signedAt')}: <strong>{time(signature.signedAt)}</strong>
              </Typography>
              <Typography variant="body2">
                {translate('app.approval.meaning')}: <strong>{translate(`${LABELS}.choices.meaning.${signature.meaning}`)}</strong>
              </Typography>
            </Stack>
            <Typography variant="caption" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
              {translate('app.approval.hash')}: {signature.settingsHash}
            </Typography>
            <Alert severity={signature.valid ? 'success' : 'error'}>{translate(signature.valid ? 'app.approval.valid' : 'app.approval.invalid')}</Alert>
          </Stack>
        )}
      </PrintSection>
      <PrintSection heading="subtitle1" title={translate('app.approval.log')}>
        <Table size="small" data-operation-log>
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.approval.logTime')}</TableCell>
              <TableCell>{translate('app.approval.logContent')}</TableCell>
              <TableCell>{translate('app.approval.logStatus')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(log.data ?? []).map((row) => (
              <TableRow key={row.key} data-action={row.action}>
                <TableCell>{time(row.at)}</TableCell>
                <TableCell>{row.updateContent}</TableCell>
                <TableCell>{translate(row.status === 1 ? 'app.approval.logDone' : 'app.approval.logWaiting')}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </PrintSection>
    </Stack>
  );
};
