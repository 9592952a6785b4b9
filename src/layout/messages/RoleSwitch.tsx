import { MenuItem } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useAuthProvider, useNotify, usePermissions, useTranslate } from 'react-admin';
import { nextRole, type Role } from '../../domain/roles';
import type { ConsoleAuthProvider } from '../../providers/authProvider';

/** Only a development build against the mocks (`npm run dev:mock`) offers it: no server knows the call. */
const offered = (): boolean => import.meta.env.DEV && import.meta.env.MODE === 'mock';

const RoleSwitchItem = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const authProvider = useAuthProvider<ConsoleAuthProvider>();
  const queryClient = useQueryClient();
  const { permissions: role } = usePermissions<Role | null>();
  const switchRole = async () => {
    const next = nextRole(role);
    await authProvider?.switchRole(next);
    // Identity, permissions and every canAccess answer are react-admin's 'auth' queries: all asked again.
    await queryClient.invalidateQueries({ queryKey: ['auth'] });
    notify('app.messageBox.switchedRole', { type: 'info', messageArgs: { role: next } });
  };
  return (
    <MenuItem data-role-switch onClick={() => void switchRole()}>
      {translate('app.messageBox.switchRole', { role: role ?? '' })}
    </MenuItem>
  );
};

/** The role-switch helper (admin → user → lowUser → client → admin), in the mock mode's development builds only. */
export const RoleSwitch = () => (offered() ? <RoleSwitchItem /> : null);
