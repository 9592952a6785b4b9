import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { generateResource } from '../generate/resource';
import { accountsConfig } from './config';

export const accounts = generateResource(accountsConfig, { icon: ManageAccountsIcon });
