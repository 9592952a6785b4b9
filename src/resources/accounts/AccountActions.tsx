import { useState, type MouseEvent } from 'react';
import { Alert, Box, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DevicesIcon from '@mui/icons-material/Devices';
import LockResetIcon from '@mui/icons-material/LockReset';
import { useMutation } from '@tanstack/react-query';
import {
  AutocompleteArrayInput,
  Button,
  Confirm,
  Form,
  ReferenceArrayInput,
  SaveButton,
  useCanAccess,
  useDataProvider,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import type { AssignDevicesBody } from './calls';

/** A device in the picker: its Id (what is assigned) and its name. */
const deviceLabel = (device: RaRecord) => `${String(device.Id)} · ${String(device.name ?? '')}`;
/** The picker searches devices by Id, as the account form does (DeviceIds' `searchBy`). */
const byId = (text: string) => (text ? { Id: text } : {});

/**
 * "Reset password": asks first, then shows the server's NewCode exactly once, with a copy button. The
 * code lives only in this component's state and is dropped when the dialog closes.
 */
const ResetPassword = ({ account }: { account: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [asking, setAsking] = useState(false);
  const [newCode, setNewCode] = useState<string | null>(null);
  // A failure is announced by the HTTP client (the custom methods' calls are not quiet).
  const reset = useMutation({
    mutationFn: () => dataProvider.resetPassword({ Account: account }),
    onSuccess: ({ NewCode }) => setNewCode(NewCode),
    onSettled: () => setAsking(false),
  });
  const copy = async () => {
    if (newCode === null) return;
    try {
      await navigator.clipboard.writeText(newCode);
      notify('app.accounts.copied', { type: 'success' });
    } catch {
      notify('app.accounts.copyFailed', { type: 'warning' });
    }
  };
  return (
    <>
      <Button label="app.accounts.resetPassword" onClick={() => setAsking(true)} disabled={reset.isPending}>
        <LockResetIcon />
      </Button>
      <Confirm
        isOpen={asking}
        loading={reset.isPending}
        title="app.accounts.resetTitle"
        titleTranslateOptions={{ account }}
        content="app.accounts.resetBody"
        contentTranslateOptions={{ account }}
        onConfirm={() => reset.mutate()}
        onClose={() => setAsking(false)}
      />
      <Dialog open={newCode !== null} onClose={() => setNewCode(null)} aria-labelledby="new-code-title" maxWidth="xs" fullWidth>
        <DialogTitle id="new-code-title">{translate('app.accounts.newCodeTitle', { account })}</DialogTitle>
        <DialogContent>
          <Box
            component="output"
            data-testid="new-code"
            sx={{ display: 'block', my: 1, p: 1.5, fontFamily: 'monospace', fontSize: '1.25rem', textAlign: 'center', bgcolor: 'action.hover', userSelect: 'all' }}
          >
            {newCode}
          </Box>
          <Alert severity="warning">{translate('app.accounts.newCodeOnce')}</Alert>
        </DialogContent>
        <DialogActions>
          <Button label="app.accounts.copy" onClick={() => void copy()} variant="contained">
            <ContentCopyIcon />
          </Button>
          <Button label="ra.action.close" onClick={() => setNewCode(null)} />
        </DialogActions>
      </Dialog>
    </>
  );
};

/**
 * "Assign devices": the account's devices, preselected, in a picker of the devices the signed-in user
 * manages (the devices list is already scoped by the server); saving makes them exactly the chosen ones.
 */
const AssignDevices = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [open, setOpen] = useState(false);
  const account = String(record.Account);
  const assign = useMutation({
    mutationFn: (body: AssignDevicesBody) => dataProvider.assignDevices(body),
    onSuccess: () => {
      notify('app.accounts.assigned', { type: 'success' });
      setOpen(false);
      refresh();
    },
  });
  const current = Array.isArray(record.DeviceIds) ? record.DeviceIds.map(String) : [];
  const save = async (values: Record<string, unknown>) => {
    const DeviceIds = Array.isArray(values.DeviceIds) ? values.DeviceIds.map(String) : [];
    // The HTTP client announces a refusal; the dialog stays open so the choice can be corrected.
    await assign.mutateAsync({ Account: account, DeviceIds }).catch(() => undefined);
  };
  return (
    <>
      <Button label="app.accounts.assignDevices" onClick={() => setOpen(true)}>
        <DevicesIcon />
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="assign-devices-title" maxWidth="sm" fullWidth>
        <Form record={{ id: record.id, DeviceIds: current }} onSubmit={save} noValidate>
          <DialogTitle id="assign-devices-title">{translate('app.accounts.assignTitle', { account })}</DialogTitle>
          <DialogContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {translate('app.accounts.assignHint')}
            </Typography>
            <ReferenceArrayInput source="DeviceIds" reference="devices">
              <AutocompleteArrayInput label="resources.accounts.fields.DeviceIds" optionText={deviceLabel} filterToQuery={byId} fullWidth />
            </ReferenceArrayInput>
          </DialogContent>
          <DialogActions>
            <Button label="ra.action.cancel" onClick={() => setOpen(false)} />
            <SaveButton alwaysEnable={!assign.isPending} />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};

/**
 * An account row's commands, each shown only to roles the policy allows (administrators), and not on
 * the signed-in account's own row (its own password is changed in user settings, its devices come from
 * above). A super administrator manages every device by its level, so it is assigned none.
 */
export const AccountActions = () => {
  const record = useRecordContext();
  const { identity } = useGetIdentity();
  const { canAccess: mayReset } = useCanAccess({ resource: 'accounts', action: 'resetPassword' });
  const { canAccess: mayAssign } = useCanAccess({ resource: 'accounts', action: 'assignDevices' });
  if (!record || !identity || identity.id === record.Account) return null;
  // The row opens the account on click; a command (and its dialogs, portals in the same React tree) must not.
  const keepInRow = (event: MouseEvent) => event.stopPropagation();
  return (
    <span onClick={keepInRow}>
      {mayReset && <ResetPassword account={String(record.Account)} />}
      {mayAssign && record.Level !== 0 && <AssignDevices record={record} />}
    </span>
  );
};
