import { ResourceShow } from '../generate/ResourceShow';
import { AlarmActions } from './AlarmActions';
import { AlarmHistory } from './AlarmHistory';
import { alarmsConfig } from './config';

/** An alarm's page: its generated fields, the same actions as its list row, and its history of transitions. */
export const AlarmShow = () => (
  <ResourceShow config={alarmsConfig} actions={<AlarmActions />}>
    <AlarmHistory />
  </ResourceShow>
);
