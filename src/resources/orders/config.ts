import { INTEGER_ID_MAX } from '../model';
import { defineResource } from '../types';

/**
 * docs/product.md, "Orders": bookings as the upstream lists them (`list/get_Records`), with when each was
 * used and cancelled (ours). Booking and cancelling are REST calls (./requests.ts), in the order manager.
 */
export const ordersConfig = defineResource({
  name: 'orders',
  menu: { group: 'other', order: 10 },
  id: 'id',
  representation: 'OrderNum',
  defaultSort: { field: 'Time', order: 'DESC' },
  adapter: 'upstream',
  endpoints: { list: '/list/get_Records' },
  fields: {
    id: { kind: 'number', integer: true, min: 1, max: INTEGER_ID_MAX, required: true, views: ['show', 'sort'] },
    OrderNum: { kind: 'text', maxLength: 64, required: true, views: ['list', 'filter', 'sort', 'show'] },
    Id: { kind: 'reference', reference: 'devices', searchBy: 'Id', required: true, views: ['list', 'filter', 'sort', 'show'] },
    Time: { kind: 'datetime', required: true, views: ['list', 'filter', 'sort', 'show'] },
    SetT: { kind: 'datetime', views: ['list', 'filter', 'sort', 'show'] },
    OC: { kind: 'text', maxLength: 32, views: ['list', 'filter', 'show'] },
    OpenId: { kind: 'text', maxLength: 64, views: ['list', 'filter', 'show'] },
    IsUsed: { kind: 'boolean', views: ['list', 'filter', 'show'] },
    IsPass: { kind: 'boolean', views: ['list', 'filter', 'show'] },
    UseTime: { kind: 'datetime', views: ['list', 'filter', 'sort', 'show'] },
    FinishTime: { kind: 'datetime', views: ['list', 'sort', 'show'] },
    CancelTime: { kind: 'datetime', views: ['list', 'show'] },
  },
  labels: {
    'zh-CN': {
      name: '订单 |||| 订单',
      fields: {
        id: '编号',
        OrderNum: '订单号',
        Id: '设备',
        Time: '开单时间',
        SetT: '预约时间',
        OC: '操作码',
        OpenId: '用户 OpenID',
        IsUsed: '已使用',
        IsPass: '已过期',
        UseTime: '开始使用',
        FinishTime: '完成时间',
        CancelTime: '取消时间',
      },
      choices: {},
    },
    'en-US': {
      name: 'Order |||| Orders',
      fields: {
        id: 'No.',
        OrderNum: 'Order number',
        Id: 'Device',
        Time: 'Opened at',
        SetT: 'Booking time',
        OC: 'Operation code',
        OpenId: 'User OpenID',
        IsUsed: 'Used',
        IsPass: 'Expired',
        UseTime: 'Session start',
        FinishTime: 'Finish time',
        CancelTime: 'Cancelled at',
      },
      choices: {},
    },
  },
});
