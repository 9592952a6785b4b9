import type { crudZhCN } from './crud.zh-CN';

/** English messages of the generated resource views; `satisfies` keeps the key sets equal. */
export const crudEnUS = {
  crud: {
    validation: {
      required: 'Required',
      tooShort: 'At least %{min} characters',
      tooLong: 'At most %{max} characters',
      tooSmall: 'Must be at least %{min}',
      tooBig: 'Must be at most %{max}',
      integer: 'Must be a whole number',
      oneOf: 'Must be one of: %{values}',
      pattern: 'Wrong format',
      bloodPressure: 'Enter systolic/diastolic, for example 120/80',
      password: 'At least 6 characters, no spaces, with upper and lower case letters and digits',
      invalid: 'Invalid value',
    },
    units: {
      ata: 'ATA',
      kPa: 'kPa',
      minute: 'min',
      percent: '%',
      celsius: '°C',
      relativeHumidity: '%RH',
      bpm: 'bpm',
      mmHg: 'mmHg',
      second: 's',
    },
    filters: {
      from: '%{field} from',
      to: '%{field} to',
    },
    list: {
      actions: 'Actions',
    },
    commands: {
      open: 'Open permission',
      close: 'Close permission',
      setState: 'Set status',
      sent: 'Command sent',
    },
  },
} satisfies typeof crudZhCN;
