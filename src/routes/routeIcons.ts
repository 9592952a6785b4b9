import type { SvgIconComponent } from '@mui/icons-material';
import DashboardIcon from '@mui/icons-material/Dashboard';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import GridViewIcon from '@mui/icons-material/GridView';
import TimelineIcon from '@mui/icons-material/Timeline';
import SensorsIcon from '@mui/icons-material/Sensors';
import DevicesIcon from '@mui/icons-material/DevicesOther';
import AssignmentIcon from '@mui/icons-material/Assignment';
import ListAltIcon from '@mui/icons-material/ListAlt';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import PersonIcon from '@mui/icons-material/Person';
import SettingsIcon from '@mui/icons-material/Settings';
import BlockIcon from '@mui/icons-material/Block';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import ErrorIcon from '@mui/icons-material/ErrorOutline';
import ViewTimelineIcon from '@mui/icons-material/ViewTimeline';
import TuneIcon from '@mui/icons-material/Tune';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import ReportIcon from '@mui/icons-material/ReportGmailerrorred';
import BarChartIcon from '@mui/icons-material/BarChart';
import PivotIcon from '@mui/icons-material/PivotTableChart';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import type { MenuPath } from '../domain/menu';

/** Each screen's icon, in the menu and on the workplace page. */
export const ROUTE_ICONS: Record<MenuPath, SvgIconComponent> = {
  '/dashboard/workplace': DashboardIcon,
  '/dashboard/monitor': GridViewIcon,
  '/visualization/data-analysis': BarChartIcon,
  '/visualization/multi-dimension-data-analysis': PivotIcon,
  '/list/oxygen-monitor': MonitorHeartIcon,
  '/list/device-atts': SensorsIcon,
  '/list/readings': TimelineIcon,
  '/list/device-manager': DevicesIcon,
  '/other/order-manager': AssignmentIcon,
  '/other/order-list': ListAltIcon,
  '/other/manager': ManageAccountsIcon,
  '/form/step': ViewTimelineIcon,
  '/form/group': TuneIcon,
  '/result/success': TaskAltIcon,
  '/result/error': ReportIcon,
  '/profile/basic': FactCheckIcon,
  '/user/info': PersonIcon,
  '/user/setting': SettingsIcon,
  '/exception/403': BlockIcon,
  '/exception/404': SearchOffIcon,
  '/exception/500': ErrorIcon,
};
