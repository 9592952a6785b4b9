import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { generateResource } from '../generate/resource';
import { lazyView } from '../../loading/lazyView';
import { accountsConfig } from './config';

/**
 * The generated list (columns from the configuration) with the password and device commands on each row; create
 * and edit offer only lower levels.
 */
export const accounts = generateResource(accountsConfig, {
  icon: ManageAccountsIcon,
  overrides: {
    create: lazyView(() => import('./AccountCreate').then((module) => module.AccountCreate)),
    edit: lazyView(() => import('./AccountEdit').then((module) => module.AccountEdit)),
  },
  rowActions: lazyView(() => import('./AccountActions').then((module) => module.AccountActions)),
});
