import { usePermissions } from 'react-admin';
import type { Role } from '../../domain/roles';
import { TEMPLATE_PAGES_BUILT_ON, useAppSettings } from './appSettings';

/**
 * Whether the template's route groups are on for the signed-in account: the super administrator's own
 * switch in the settings drawer (the build's value until it changes it), the build's for every other role,
 * so an admin trying them out on a shared browser does not turn them on for the next account.
 */
export const useTemplatePages = (): boolean => {
  const [{ templatePages }] = useAppSettings();
  const { permissions: role } = usePermissions<Role>();
  return role === 'admin' ? templatePages : TEMPLATE_PAGES_BUILT_ON;
};
