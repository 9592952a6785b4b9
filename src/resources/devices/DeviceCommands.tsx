import { useState, type MouseEvent } from 'react';
import { Box, Menu, MenuItem } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import { useMutation } from '@tanstack/react-query';
import { useCanAccess, useDataProvider, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { DEVICE_STATES, type DeviceState } from '../../domain/devices';
import { RowAction } from '../generate/RowAction';
import { DeviceSettings } from './DeviceSettings';
import { RotateSecret } from './RotateSecret';
import { useCommandFeedback } from './useCommandFeedback';
import { useSessionConfirm } from './useSessionConfirm';

type Command = { kind: 'permission' } | { kind: 'state'; State: DeviceState };

/**
 * Sends one device command through the data provider's custom methods, then refreshes the views so they
 * show the device's new permission or state, and tells the operator what the chamber answers
 * (useCommandFeedback). A failure is already announced by the HTTP client.
 */
const useDeviceCommand = (Id: string) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refresh = useRefresh();
  const feedback = useCommandFeedback();
  return useMutation({
    mutationFn: (command: Command) =>
      command.kind === 'permission' ? dataProvider.changePermission({ Id }) : dataProvider.changeState({ Id, State: command.State }),
    onSuccess: (issued) => {
      feedback(Id, issued);
      refresh();
    },
  });
};

/**
 * A device's commands (its list row, its detail page): switch its permission, set its state, change its
 * settings; each an icon named in its tooltip, shown only to roles the policy allows. Closing the permission and setting Repair ask
 * first while the chamber is in session (useSessionConfirm).
 */
export const DeviceCommands = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const { canAccess: mayPermit } = useCanAccess({ resource: 'devices', action: 'changePermission' });
  const { canAccess: mayChangeState } = useCanAccess({ resource: 'devices', action: 'changeState' });
  const { canAccess: mayChangeSettings } = useCanAccess({ resource: 'devices', action: 'changeSettings' });
  const { canAccess: mayRequestSettings } = useCanAccess({ resource: 'setting-requests', action: 'request' });
  const command = useDeviceCommand(String(record?.Id ?? ''));
  const { confirmFirst, dialog } = useSessionConfirm(record);
  if (!record) return null;
  // The row opens the device on click; a command (and its dialog, a portal in the same React tree) must not.
  const keepInRow = (event: MouseEvent) => event.stopPropagation();
  return (
    <Box component="span" onClick={keepInRow} sx={{ display: 'inline-flex', alignItems: 'center', whiteSpace: 'nowrap' }}>
      {mayPermit && (
        <RowAction
          label={record.Permission === 'Open' ? 'crud.commands.close' : 'crud.commands.open'}
          icon={record.Permission === 'Open' ? <LockIcon /> : <LockOpenIcon />}
          disabled={command.isPending}
          onClick={() => {
            const toggle = () => command.mutate({ kind: 'permission' });
            if (record.Permission === 'Open') confirmFirst('closePermission', toggle);
            else toggle();
          }}
        />
      )}
      {mayChangeState && (
        <>
          <RowAction label="crud.commands.setState" icon={<SyncAltIcon />} disabled={command.isPending} onClick={(event) => setMenuAnchor(event.currentTarget)} />
          <Menu anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
            {DEVICE_STATES.map((State) => (
              <MenuItem
                key={State}
                selected={record.State === State}
                onClick={() => {
                  setMenuAnchor(null);
                  const change = () => command.mutate({ kind: 'state', State });
                  if (State === 'Repair') confirmFirst('repair', change);
                  else change();
                }}
              >
                {translate(`resources.devices.choices.State.${State}`)}
              </MenuItem>
            ))}
          </Menu>
        </>
      )}
      {mayChangeSettings && <DeviceSettings record={record} />}
      {!mayChangeSettings && mayRequestSettings && <DeviceSettings record={record} requestOnly />}
      <RotateSecret record={record} />
      {dialog}
    </Box>
  );
};
