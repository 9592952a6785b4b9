import AssignmentIcon from '@mui/icons-material/Assignment';
import { generateResource } from '../generate/resource';
import { ordersConfig } from './config';

export const orders = generateResource(ordersConfig, { icon: AssignmentIcon });
