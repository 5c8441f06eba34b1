import { describe, expect, it } from 'vitest';
import { normaliseCountry } from './country-codes.js';

describe('normaliseCountry', () => {
  it('accepts assigned ISO 3166-1 alpha-2 codes in any case, upper-casing them', () => {
    expect(['us', 'DE', 'gB', ' fr ', 'AX', 'SS', 'ZW'].map(normaliseCountry)).toEqual([
      'US',
      'DE',
      'GB',
      'FR',
      'AX',
      'SS',
      'ZW',
    ]);
  });

  it('refuses anything else, including user-assigned and withdrawn codes', () => {
    expect(['XX', 'UK', 'EU', 'XK', 'YU', 'USA', 'u', ''].map(normaliseCountry)).toEqual(
      Array(8).fill(undefined),
    );
  });
});
