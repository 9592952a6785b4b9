import RuleIcon from '@mui/icons-material/Rule';
import { generateResource } from '../generate/resource';
import { alarmRulesConfig } from './config';

export const alarmRules = generateResource(alarmRulesConfig, { icon: RuleIcon });
