import { defineResource } from '../types';

/**
 * docs/product.md, "Devices and readings": one state record per device report (`list/get_OCState`), wire
 * names exactly as the old console spells them (RCPi02, RGPi02 and HmSP02 with a zero). A record is named by
 * its device and Time. Settings and the oxygen generator show in the column chooser, not by default.
 */
const onOff = [0, 1] as const;

export const stateRecordsConfig = defineResource({
  name: 'state-records',
  menu: { group: 'list', order: 20 },
  id: ['Id', 'Time'],
  representation: 'Time',
  defaultSort: { field: 'Time', order: 'DESC' },
  // A fleet at 1 Hz stores 86 million a day: counting them all on every page cost more than the page.
  countUpTo: 10_000,
  adapter: 'upstream',
  endpoints: { list: '/list/get_OCState' },
  fields: {
    // Named by its Id, the value itself: the log refetches its page every 2 s, and a name would be looked up per row.
    Id: { kind: 'reference', reference: 'devices', searchBy: 'Id', shows: 'Id', required: true, views: ['list', 'filter', 'sort', 'show'] },
    Time: { kind: 'datetime', required: true, views: ['list', 'filter', 'sort', 'show'] },
    L: { kind: 'enum', choices: onOff, views: ['show', 'filter'] },
    SP: { kind: 'number', min: 1, max: 3, unit: 'ata', views: ['show', 'sort'] },
    ST: { kind: 'number', integer: true, min: 0, max: 240, unit: 'minute', views: ['show', 'sort'] },
    SS: { kind: 'enum', choices: ['F', 'M', 'S'], views: ['show', 'filter'] },
    SL: { kind: 'enum', choices: onOff, views: ['show'] },
    SA: { kind: 'enum', choices: onOff, views: ['show'] },
    RCP: { kind: 'number', min: 0, max: 6, unit: 'ata', views: ['list', 'filter', 'sort', 'show'] },
    RRD: { kind: 'number', integer: true, min: 0, max: 240, unit: 'minute', views: ['list', 'sort', 'show'] },
    RCPi02: { kind: 'number', min: 0, max: 100, unit: 'percent', views: ['list', 'filter', 'sort', 'show'] },
    RGPi02: { kind: 'number', min: 0, max: 100, unit: 'percent', views: ['show', 'sort'] },
    RCT: { kind: 'number', min: -20, max: 60, unit: 'celsius', views: ['list', 'filter', 'sort', 'show'] },
    RCRH: { kind: 'number', min: 0, max: 100, unit: 'relativeHumidity', views: ['list', 'sort', 'show'] },
    RAP: { kind: 'number', min: 50, max: 110, unit: 'kPa', views: ['show', 'sort'] },
    HmHR: { kind: 'number', integer: true, min: 0, max: 250, unit: 'bpm', views: ['list', 'filter', 'sort', 'show'] },
    HmSP02: { kind: 'number', integer: true, min: 0, max: 100, unit: 'percent', views: ['list', 'filter', 'sort', 'show'] },
    HmBP: { kind: 'bloodPressure', views: ['list', 'show'] },
  },
  labels: {
    'zh-CN': {
      name: '状态记录 |||| 状态记录',
      fields: {
        Id: '设备',
        Time: '时间',
        L: '舱门锁',
        SP: '设定压力',
        ST: '设定时间',
        SS: '加压速度',
        SL: '照明',
        SA: '氛围灯',
        RCP: '舱内压力',
        RRD: '剩余时间',
        RCPi02: '舱内氧浓度',
        RGPi02: '制氧机氧浓度',
        RCT: '舱内温度',
        RCRH: '舱内湿度',
        RAP: '大气压',
        HmHR: '心率',
        HmSP02: '血氧饱和度',
        HmBP: '血压',
      },
      choices: {
        L: { 0: '未锁', 1: '已锁' },
        SS: { F: '快', M: '中', S: '慢' },
        SL: { 0: '关', 1: '开' },
        SA: { 0: '关', 1: '开' },
      },
    },
    'en-US': {
      name: 'State record |||| State records',
      fields: {
        Id: 'Device',
        Time: 'Time',
        L: 'Door lock',
        SP: 'Set pressure',
        ST: 'Set time',
        SS: 'Pressurisation speed',
        SL: 'Light',
        SA: 'Atmosphere light',
        RCP: 'Cabin pressure',
        RRD: 'Remaining time',
        RCPi02: 'Cabin oxygen concentration',
        RGPi02: 'Oxygen generator concentration',
        RCT: 'Cabin temperature',
        RCRH: 'Cabin humidity',
        RAP: 'Atmospheric pressure',
        HmHR: 'Heart rate',
        HmSP02: 'Blood oxygen saturation (SpO2)',
        HmBP: 'Blood pressure',
      },
      choices: {
        L: { 0: 'unlocked', 1: 'locked' },
        SS: { F: 'fast', M: 'medium', S: 'slow' },
        SL: { 0: 'off', 1: 'on' },
        SA: { 0: 'off', 1: 'on' },
      },
    },
  },
});
