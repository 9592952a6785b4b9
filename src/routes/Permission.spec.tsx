import { afterEach, describe, expect, it, vi } from 'vitest';
import { Component, type ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import { CoreAdminContext, memoryStore, type AuthProvider } from 'react-admin';
import type { Role, RoleList } from '../domain/roles';
import { Permission } from './Permission';

/** Shows the error a child throws while rendering. */
class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children;
  }
}

const authAs = (role: Role): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => role,
});

const renderAs = (role: Role, roles: RoleList) =>
  render(
    <CoreAdminContext authProvider={authAs(role)} store={memoryStore()}>
      <Permission roles={[role]}>
        <p>role loaded</p>
      </Permission>
      <Permission roles={roles}>
        <button>delete</button>
      </Permission>
    </CoreAdminContext>,
  );

/** Waits until the role has loaded (a child allowed to exactly that role shows), then says whether the guarded one shows. */
const shown = async () => {
  await screen.findByText('role loaded');
  return screen.queryByRole('button', { name: 'delete' }) !== null;
};

describe('<Permission>', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows its children to a role in the list', async () => {
    renderAs('user', ['admin', 'user']);
    expect(await shown()).toBe(true);
  });

  it('removes its children when the role is not in the list', async () => {
    renderAs('client', ['admin', 'user']);
    expect(await shown()).toBe(false);
  });

  it("allows every role for '*' and for an empty list", async () => {
    for (const roles of [['*'], []] satisfies RoleList[]) {
      for (const role of ['admin', 'lowUser', 'client'] satisfies Role[]) {
        const view = renderAs(role, roles);
        expect(await shown(), `${role} with ${JSON.stringify(roles)}`).toBe(true);
        view.unmount();
      }
    }
  });

  it('throws when no list of roles is given', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const noRoles = { children: <button>delete</button> } as unknown as Parameters<typeof Permission>[0];
    render(
      <CoreAdminContext authProvider={authAs('admin')} store={memoryStore()}>
        <Boundary>
          <Permission {...noRoles} />
        </Boundary>
      </CoreAdminContext>,
    );
    expect(screen.getByRole('alert').textContent).toMatch(/needs the roles/);
    expect(screen.queryByRole('button', { name: 'delete' })).toBeNull();
  });
});
