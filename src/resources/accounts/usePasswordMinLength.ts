import { useGetIdentity } from 'react-admin';
import { DEFAULT_PASSWORD_MIN_LENGTH } from '../../domain/password';

/** The password length in force, from the user info (src/domain/auth.ts, CurrentUser): the hint and the forms name it. */
export const usePasswordMinLength = (): number => {
  const { identity } = useGetIdentity();
  const told: unknown = identity?.passwordMinLength;
  return typeof told === 'number' ? told : DEFAULT_PASSWORD_MIN_LENGTH;
};
