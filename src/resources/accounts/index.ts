import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { generateResource } from '../generate/resource';
import { AccountActions } from './AccountActions';
import { AccountCreate } from './AccountCreate';
import { accountsConfig } from './config';

/** The generated list (columns from the configuration) with the password and device commands on each row; create offers only lower levels. */
export const accounts = generateResource(accountsConfig, {
  icon: ManageAccountsIcon,
  overrides: { create: AccountCreate },
  rowActions: AccountActions,
});
