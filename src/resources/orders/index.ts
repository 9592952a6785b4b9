import AssignmentIcon from '@mui/icons-material/Assignment';
import { lazyView } from '../../loading/lazyView';
import { generateResource } from '../generate/resource';
import { ordersConfig } from './config';

// An order's detail is its session report, a chunk of its own (charts): loaded when a row is opened.
const OrderReport = lazyView(() => import('./report/OrderReport').then((module) => module.OrderReport));

export const orders = generateResource(ordersConfig, { icon: AssignmentIcon, overrides: { show: OrderReport } });
