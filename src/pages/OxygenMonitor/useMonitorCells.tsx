import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { useTheme } from '@mui/material';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { AlarmRecord } from '../../domain/alarms/record';
import { DEFAULT_RATED_MAX_ATA, type DeviceType } from '../../domain/deviceTypes';
import { AlarmMarks } from '../../resources/devices/alarms/AlarmMark';
import type { MonitorColumn } from './columns';
import { formatDateTime, formatTime } from './formats';
import { MONITOR_CAPTION, type MonitoredDevice } from './monitoredDevice';
import { ReadingValue } from './ReadingValue';

const ICON_STYLE = { fontSize: '1rem' } as const;

/**
 * What a chamber shows in each of the monitor's columns, the same in a table row and a phone's card. A
 * hook rather than a component per value: a live fleet renders every visible chamber each second, and one
 * set of hooks per chamber keeps that cheap.
 */
export const useMonitorCells = (record: MonitoredDevice, deviceType: DeviceType | undefined, alarms: readonly AlarmRecord[]): ((column: MonitorColumn) => ReactNode) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { palette } = useTheme();
  const alert = { color: palette.error.main, fontWeight: 600, display: 'inline-flex', alignItems: 'center', gap: 2 } as const;
  const reading = record.Reading ?? undefined;
  const inSession = Boolean(record.SessionOC);

  const online = (): ReactNode => {
    const seen = record.LastSeen ? new Date(record.LastSeen) : undefined;
    const title = seen ? translate('app.monitor.lastSeen', { time: formatDateTime(locale, seen) }) : translate('app.monitor.never');
    if (!record.Online && inSession) {
      return (
        <span title={title} data-mark="high" style={alert}>
          <ErrorOutlineIcon style={ICON_STYLE} />
          {translate('app.monitor.offlineInSession')}
        </span>
      );
    }
    return (
      <span title={title} style={{ color: record.Online ? palette.success.main : palette.text.secondary }}>
        {translate(record.Online ? 'app.monitor.online' : 'app.monitor.offline')}
        {seen && <span className={MONITOR_CAPTION}>{` · ${formatTime(locale, seen)}`}</span>}
      </span>
    );
  };

  const cell = (column: MonitorColumn): ReactNode => {
    switch (column.key) {
      case 'Id':
        return record.Id;
      case 'name':
        return record.name;
      case 'Type':
        return deviceType?.name ?? record.Type;
      case 'Location':
        return record.Location;
      case 'State':
        return translate(`resources.devices.choices.State.${record.State}`);
      case 'Online':
        return online();
      case 'OrderNum':
        return record.OrderNum ?? '';
      case 'Emergency':
        return record.Emergency ? (
          <span data-mark="high" style={alert}>
            <ErrorOutlineIcon style={ICON_STYLE} />
            {translate('app.monitor.erdActive')}
          </span>
        ) : (
          <span style={{ color: palette.text.secondary }}>{translate('app.monitor.erdIdle')}</span>
        );
      case 'alarms':
        return <AlarmMarks alarms={alarms} />;
      default:
        return (
          <ReadingValue
            reading={reading}
            field={column.key}
            digits={column.digits ?? 0}
            unit={column.unit}
            inSession={inSession}
            ratedMaxAta={deviceType?.ratedMaxAta ?? DEFAULT_RATED_MAX_ATA}
          />
        );
    }
  };

  return cell;
};
