import CategoryIcon from '@mui/icons-material/Category';
import { generateResource } from '../generate/resource';
import { deviceTypesConfig } from './config';

export const deviceTypes = generateResource(deviceTypesConfig, { icon: CategoryIcon });
