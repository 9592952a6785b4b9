import { COMMAND_STATUSES } from '../../domain/commands';
import { INTEGER_ID_MAX } from '../model';
import { defineResource } from '../types';

/** Where the requests are served under the REST base: `/api/v1/setting-requests`. */
export const SETTING_REQUESTS_PATH = 'setting-requests';

/** A request waits for a decision, then is approved (its command sent), rejected or cancelled by its requester. */
const SETTING_REQUEST_STATUSES = ['waiting', 'approved', 'rejected', 'cancelled'] as const;
export type SettingRequestStatus = (typeof SETTING_REQUEST_STATUSES)[number];

/** What a signature means (21 CFR 11.50 (a)(3)): approving, rejecting, or approving or rejecting as reviewed. */
const SIGNATURE_MEANINGS = ['approval', 'rejection', 'review'] as const;
export type SignatureMeaning = (typeof SIGNATURE_MEANINGS)[number];

/**
 * Parameter approval (docs/approval.md): a second-level administrator's request to change a chamber's
 * settings, which an administrator above it who manages the chamber approves or rejects with an electronic
 * signature. Served by `GET /api/v1/setting-requests` and `/:id` with its actions beside (server/setting-requests/);
 * the console's list is generated from this, the show page is the basic profile (ApprovalProfile.tsx). The
 * settings asked for, those in force before and the signature are free JSON of the record (./requests.ts).
 */
export const settingRequestsConfig = defineResource({
  name: SETTING_REQUESTS_PATH,
  menu: { group: 'list', order: 45 },
  id: 'id',
  representation: 'id',
  defaultSort: { field: 'requestedAt', order: 'DESC' },
  adapter: 'rest',
  path: SETTING_REQUESTS_PATH,
  fields: {
    id: { kind: 'number', integer: true, min: 1, max: INTEGER_ID_MAX, views: ['list', 'sort', 'show'] },
    deviceId: { kind: 'reference', reference: 'devices', searchBy: 'Id', shows: 'Id', required: true, views: ['list', 'filter', 'sort', 'show'] },
    status: {
      kind: 'enum',
      choices: SETTING_REQUEST_STATUSES,
      tones: { waiting: 'warning', approved: 'success', rejected: 'error', cancelled: 'info' },
      required: true,
      views: ['list', 'filter', 'sort', 'show'],
    },
    requester: { kind: 'text', maxLength: 64, required: true, views: ['list', 'filter', 'show'] },
    requestedAt: { kind: 'datetime', required: true, views: ['list', 'filter', 'sort', 'show'] },
    decidedBy: { kind: 'text', maxLength: 64, views: ['list', 'show'] },
    decidedAt: { kind: 'datetime', views: ['list', 'sort', 'show'] },
    meaning: { kind: 'enum', choices: SIGNATURE_MEANINGS, views: ['show'] },
    commandStatus: { kind: 'enum', choices: COMMAND_STATUSES, views: ['list', 'show'] },
  },
  labels: {
    'zh-CN': {
      name: '参数审批 |||| 参数审批',
      fields: {
        id: '申请编号',
        deviceId: '设备编号',
        status: '状态',
        requester: '申请人',
        requestedAt: '申请时间',
        decidedBy: '审批人',
        decidedAt: '审批时间',
        meaning: '签名含义',
        commandStatus: '指令结果',
      },
      choices: {
        status: { waiting: '待审批', approved: '已批准', rejected: '已驳回', cancelled: '已撤销' },
        meaning: { approval: '批准', rejection: '驳回', review: '审阅' },
        commandStatus: { sent: '等待设备应答', acked: '设备已确认', refused: '设备拒绝', timeout: '无应答' },
      },
    },
    'en-US': {
      name: 'Settings request |||| Settings requests',
      fields: {
        id: 'Request No.',
        deviceId: 'Device ID',
        status: 'Status',
        requester: 'Requested by',
        requestedAt: 'Requested',
        decidedBy: 'Decided by',
        decidedAt: 'Decided',
        meaning: 'Signature meaning',
        commandStatus: 'Command outcome',
      },
      choices: {
        status: { waiting: 'waiting for approval', approved: 'approved', rejected: 'rejected', cancelled: 'cancelled' },
        meaning: { approval: 'approval', rejection: 'rejection', review: 'review' },
        commandStatus: { sent: 'waiting for the chamber', acked: 'confirmed', refused: 'refused', timeout: 'no answer' },
      },
    },
  },
});
