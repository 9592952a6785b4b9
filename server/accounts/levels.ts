import { DEFAULT_LEVEL, isLevel, type Level } from '../../src/domain/roles';

/** A stored level as a Level; anything unexpected is the least privileged one. */
export const asLevel = (value: unknown): Level => {
  const numeric = typeof value === 'string' ? Number(value) : value;
  return isLevel(numeric) ? numeric : DEFAULT_LEVEL;
};
