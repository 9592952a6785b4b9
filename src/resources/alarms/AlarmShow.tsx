import { ResourceShow } from '../generate/ResourceShow';
import { AlarmActions } from './AlarmActions';
import { AlarmDeliveries } from './AlarmDeliveries';
import { AlarmHistory } from './AlarmHistory';
import { alarmsConfig } from './config';

/** An alarm's page: its generated fields, the same actions as its list row, and its history of transitions, and the
 * notifications sent for it beyond the console with their outcomes. */
export const AlarmShow = () => (
  <ResourceShow config={alarmsConfig} actions={<AlarmActions />}>
    <AlarmHistory />
    <AlarmDeliveries />
  </ResourceShow>
);
