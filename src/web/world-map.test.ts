import { getMap } from 'echarts/core';
import { describe, expect, it } from 'vitest';
import { normaliseCountry } from '../engine/country-codes.js';
import { ALPHA2_BY_NUMBER } from './country-numbers.js';
import { worldMap } from './world-map.js';

describe('the world map', () => {
  it('numbers each of the 249 alpha-2 codes once', () => {
    const codes = [...ALPHA2_BY_NUMBER.values()];
    expect(new Set(codes).size).toBe(249);
    expect(codes.filter((code) => normaliseCountry(code) !== code)).toEqual([]);
  });

  it('names every country of the geometry by its alpha-2 code, and draws none across the map', () => {
    const map = getMap(worldMap()) as unknown as { geoJSON: GeoJSON.FeatureCollection };
    const names = map.geoJSON.features.map((country) => String(country.properties?.name));
    // Natural Earth's places without an ISO code keep their own names; Antarctica is left out.
    expect(names.filter((name) => !/^[A-Z]{2}$/.test(name)).sort()).toEqual([
      'Indian Ocean Ter.',
      'Kosovo',
      'N. Cyprus',
      'Siachen Glacier',
      'Somaliland',
    ]);
    expect(names).toEqual(expect.arrayContaining(['US', 'FR', 'SG', 'MT', 'RU', 'FJ']));
    expect(names).not.toContain('AQ');
    const rings = map.geoJSON.features.flatMap((country) => {
      const geometry = country.geometry as GeoJSON.Polygon | GeoJSON.MultiPolygon;
      return geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
    });
    const widest = Math.max(
      ...rings.flatMap((ring) => ring.slice(1).map((point, i) => Math.abs(point[0]! - ring[i]![0]!))),
    );
    expect(widest).toBeLessThan(180);
  });
});
