import { LEVELS, type Level } from '../../domain/roles';
import { mayCreateAtLevel } from '../../domain/scope/mayManage';

/**
 * docs/product.md, "Account hierarchy": an account creates accounts only at a strictly lower rank, a larger
 * Level number than its own (a first-level administrator, Level 1: Levels 2 and 3). The create form offers
 * these and the mocks refuse the others, as the server does.
 */
export const creatableLevels = (own: Level): Level[] => LEVELS.filter((level) => mayCreateAtLevel(own, level));

export const mayCreateAt = (own: Level, level: unknown): boolean => creatableLevels(own).some((allowed) => allowed === level);
