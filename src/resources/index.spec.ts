import { describe, expect, it } from 'vitest';
import { RESOURCE_CONFIGS } from './configs';
import { RESOURCES } from '.';

describe('resource registry', () => {
  it('renders views for exactly the configured resources, in the same order', () => {
    expect(RESOURCES.map((resource) => resource.options.config)).toEqual(RESOURCE_CONFIGS);
  });
});
