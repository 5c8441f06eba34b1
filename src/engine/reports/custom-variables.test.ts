import { describe, expect, it } from 'vitest';
import { customerView } from '../../../test/helpers/customer-view.js';
import { customVariableValues } from './custom-variables.js';

const customer = (id: string, customVariables: Record<string, string>) =>
  customerView(id, { customVariables });

const customers = [
  customer('1', { industry: 'Software', size: 'small' }),
  customer('2', { industry: 'Retail' }),
  customer('3', { industry: 'Software' }),
  customer('4', { industry: 'Hardware' }),
  customer('5', { industry: '' }),
  customer('6', {}),
  customer('7', { industry: 'software' }),
];

describe('customVariableValues', () => {
  it('counts the customers per value, most held first, then by value', () => {
    // Software: 1 and 3; each other value once, sorted by value; '' and a missing key are no value.
    expect(customVariableValues(customers, { key: 'industry', search: null, limit: 20 })).toEqual([
      { value: 'Software', count: 2 },
      { value: 'Hardware', count: 1 },
      { value: 'Retail', count: 1 },
      { value: 'software', count: 1 },
    ]);
  });

  it('searches case-insensitively and keeps at most limit values', () => {
    expect(customVariableValues(customers, { key: 'industry', search: 'WARE', limit: 20 })).toEqual([
      { value: 'Software', count: 2 },
      { value: 'Hardware', count: 1 },
      { value: 'software', count: 1 },
    ]);
    expect(customVariableValues(customers, { key: 'industry', search: null, limit: 1 })).toEqual([
      { value: 'Software', count: 2 },
    ]);
    expect(customVariableValues(customers, { key: 'colour', search: null, limit: 20 })).toEqual([]);
  });
});
