import { describe, expect, it } from 'vitest';
import { pageTab } from './pageTab';

describe('pageTab', () => {
  it('titles a menu page by its menu label and keeps its query', () => {
    expect(pageTab({ pathname: '/list/device-manager', search: '?page=2&perPage=25' }, 'lowUser')).toEqual({
      title: 'app.menu.deviceManager',
      name: '/list/device-manager',
      fullPath: '/list/device-manager?page=2&perPage=25',
      query: { page: '2', perPage: '25' },
      ignoreCache: true,
    });
  });

  it("titles a record's page by its resource", () => {
    expect(pageTab({ pathname: '/devices/OC-0001/show', search: '' }, 'admin')?.title).toBe('resources.devices.name');
    expect(pageTab({ pathname: '/audit-log', search: '' }, 'admin')?.title).toBe('resources.audit-log.name');
  });

  it('gives no tab to a page the role may not open, nor before the role is known', () => {
    expect(pageTab({ pathname: '/other/manager', search: '' }, 'client')).toBeUndefined();
    expect(pageTab({ pathname: '/accounts/create', search: '' }, 'client')).toBeUndefined();
    expect(pageTab({ pathname: '/exception/403', search: '' }, 'user')).toBeUndefined();
    expect(pageTab({ pathname: '/list/device-manager', search: '' }, undefined)).toBeUndefined();
  });

  it('gives no tab to the redirect page or an unknown path', () => {
    expect(pageTab({ pathname: '/redirect/list/device-manager', search: '' }, 'admin')).toBeUndefined();
    expect(pageTab({ pathname: '/nowhere', search: '' }, 'admin')).toBeUndefined();
    expect(pageTab({ pathname: '/devicesX', search: '' }, 'admin')).toBeUndefined();
  });
});
